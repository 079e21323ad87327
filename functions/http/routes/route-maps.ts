/** The route-map routes of forwarders (trigger, read, history, search, share links, XTD usage). */
import { PageRequestSchema } from "../schemas/paging.ts";
import {
  RouteMapHistorySchema,
  RouteMapSchema,
  RouteMapSearchResultSchema,
  RouteMapSearchSchema,
  SendsmeRequestSchema,
  SendsmeResponseSchema,
} from "../schemas/route-maps.ts";
import {
  CreatedShareSchema,
  SharedLinkSchema,
  ShareListSchema,
  ShareRequestSchema,
} from "../schemas/share-links.ts";
import { MonthPageQuerySchema, XtdUsageSchema } from "../schemas/status-requests.ts";
import { ROUTE_MAP_EXAMPLE } from "./examples.ts";
import { component, type RouteApis } from "./route-api.ts";

export const ROUTE_MAP = component("RouteMap", RouteMapSchema, ROUTE_MAP_EXAMPLE);

const SENDSME_REQUEST = component("SendsmeRequest", SendsmeRequestSchema, {
  AirlinePrefix: "020",
  AwbNumber: "12345675",
  AgentCode: "1234567",
  AgentCass: "0001",
  IsXTD: false,
});

const SEARCH_REQUEST = component("RouteMapSearch", RouteMapSearchSchema, {
  CreationDate: { From: "2026-11-01", To: "2026-11-30" },
  Origin: "FRA",
  Status: ["Accepted", "OnAir"],
  Sort: "-CreationDate",
});

const SHARE_REQUEST = component("ShareRequest", ShareRequestSchema, { ExpiresInHours: 72 });

export const ROUTE_MAP_ROUTES = {
  "get-xtd-usage": {
    summary:
      "The caller's XTD requests of a month (UTC, ?month=YYYY-MM): the count and the entries, oldest first. " +
      "Every accepted XTD sendsme counts, also one that collapsed into an earlier status request for the AWB.",
    tag: "route maps",
    query: MonthPageQuerySchema,
    response: component("XtdUsage", XtdUsageSchema, {
      ForwarderIdentifier: "ACMECARGO",
      Month: "2026-11",
      XtdRequests: 1,
      TotalItems: 1,
      TotalPages: 1,
      PageSize: 100,
      CurrentPage: 1,
      Items: [
        {
          At: "2026-11-28T09:12:44Z",
          AwbNumber: "020-12345675",
          RequestId: "SR-1795857164000-02012345675",
          Collapsed: false,
        },
      ],
    }),
  },
  "trigger-route-map": {
    summary:
      "Trigger a route map (quality program: owner only; IsXTD true: XTD). 200 with the route map, or " +
      "{ AwbNumber, Status: Requested } when the caller cannot read one yet; header x-route-map-note for advice",
    tag: "route maps",
    body: SENDSME_REQUEST,
    response: component("SendsmeResponse", SendsmeResponseSchema, ROUTE_MAP_EXAMPLE),
    errors: [409, 422],
  },
  "search-route-maps": {
    summary:
      "Search the route maps you may read (filters in the body, ?CurrentPage=&PageSize= default 100; pages hold at most 150 route maps, the answer's PageSize says the size used). Sorted by CreationDate (the default) pages come straight from the index: any depth, NextCursor/Cursor for deep pages, TotalItems counted to the end of the next page (TotalItemsExact). Other sorts: at most 10000 matches, else 400 naming Sort and CreationDate.",
    tag: "route maps",
    body: SEARCH_REQUEST,
    query: PageRequestSchema,
    response: component("RouteMapSearchResult", RouteMapSearchResultSchema, {
      TotalItems: 1,
      TotalPages: 1,
      PageSize: 100,
      CurrentPage: 1,
      TotalItemsExact: true,
      NextCursor: null,
      Items: [ROUTE_MAP_EXAMPLE],
    }),
  },
  "get-route-map-history": {
    summary:
      "The route map with one page of its snapshots (one per change, newest first, kept 30 days from creation; ?CurrentPage=&PageSize= default 100, at most 150; headers x-total-items, x-total-pages, x-current-page, x-page-size), plus StatusMessages: the status messages beyond the milestones (FOH, MAN, TFD, ...) kept as history, newest first; each snapshot and status message names the message it came from (Provenance)",
    tag: "route maps",
    query: PageRequestSchema,
    response: component("RouteMapHistory", RouteMapHistorySchema, {
      RouteMap: ROUTE_MAP_EXAMPLE,
      Snapshots: [
        {
          SnapshotDate: { Utc: "2026-11-28T08:10:05Z", Local: "2026-11-28T09:10:05" },
          RouteMap: ROUTE_MAP_EXAMPLE,
          Provenance: {
            Channel: "Email",
            Message: "FSU/15",
            MessageId: null,
            Carrier: "020",
            ReceivedAt: { Utc: "2026-11-28T08:10:05Z", Local: "2026-11-28T09:10:05" },
            TimeGiven: true,
            StatusRequestReply: false,
            ReceiptId: "20261128T081005Z-3f9a1c2b7e",
            SkippedLines: [],
          },
        },
      ],
      StatusMessages: [
        {
          Code: "FOH",
          Station: "FRA",
          DateTime: { Utc: "2026-11-28T07:55:00Z", Local: "2026-11-28T08:55:00" },
          Pieces: 10,
          Provenance: {
            Channel: "Api",
            Message: "FSU/15",
            MessageId: null,
            Carrier: "020",
            ReceivedAt: { Utc: "2026-11-28T07:56:12Z", Local: "2026-11-28T08:56:12" },
            TimeGiven: true,
            StatusRequestReply: false,
            ReceiptId: "20261128T075612Z-0c41d9e2aa",
            SkippedLines: [],
          },
        },
      ],
    }),
    errors: [400, 404],
  },
  "get-route-map": {
    summary: "Retrieve the route map of one AWB (11 digits or ppp-nnnnnnnn)",
    tag: "route maps",
    response: ROUTE_MAP,
    errors: [400, 404],
  },
  "create-route-map-share": {
    summary:
      "Create a share link of a route map you may read (else 404): a read-only view of this one AWB " +
      "without sign-in, for ExpiresInHours (1-720). 201 with Id, Url and ExpiresAt; the Url (its random " +
      "token) is shown only in this answer and stored only as a hash. At most SHARE_LINKS_PER_AWB (default " +
      "20) of your links are active on one AWB (409 past it: revoke one) and you make at most " +
      "SHARE_LINKS_PER_FORWARDER_PER_DAY (default 200) a UTC day (429 with Retry-After past it).",
    tag: "route maps",
    body: SHARE_REQUEST,
    status: 201,
    response: component("CreatedShare", CreatedShareSchema, {
      Id: "3f0c6a52-8d1e-4b7a-9c55-0e2f4a6b8d10",
      Url: "https://routemap.example.com/app/#/shared/Qm9vdHN0cmFwLXNoYXJlLWxpbmstdG9rZW4tMDAwMDA",
      ExpiresAt: "2026-12-01T08:15:00Z",
    }),
    errors: [400, 404, 409],
  },
  "list-route-map-shares": {
    summary: "Your active share links of a route map (Id, CreatedAt, ExpiresAt; never the link itself)",
    tag: "route maps",
    response: component("ShareList", ShareListSchema, {
      Items: [
        {
          Id: "3f0c6a52-8d1e-4b7a-9c55-0e2f4a6b8d10",
          ExpiresAt: "2026-12-01T08:15:00Z",
          CreatedAt: "2026-11-28T08:15:00Z",
        },
      ],
    }),
    errors: [400, 404],
  },
  "delete-route-map-share": {
    summary:
      "Revoke one of your share links of a route map at once (204). Only your own; anything else is 404.",
    tag: "route maps",
    status: 204,
    errors: [400, 404],
  },
  "get-shared-route-map": {
    summary:
      "The Url of a share link (no bearer token: its random token is the credential): the route map of " +
      "that one AWB, as GET route map answers it, with nothing naming an agent, a CASS or a forwarder. " +
      "Unknown, malformed, revoked and expired links: the same 404.",
    tag: "route maps",
    response: ROUTE_MAP,
    errors: [404],
  },
  "get-shared-link": {
    summary:
      "Who shared the route map of a share link and until when, for the page that shows it (no bearer " +
      "token). The same 404 as the route map for a link that does not answer.",
    tag: "route maps",
    response: component("SharedLink", SharedLinkSchema, {
      SharedBy: "Acme Cargo GmbH",
      ExpiresAt: "2026-12-01T08:15:00Z",
    }),
    errors: [404],
  },
} satisfies RouteApis;
