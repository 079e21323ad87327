/**
 * Support's routes about carriers: their settings (participation, planning, status-request channel,
 * inbound senders, ONE Record server), their tenant and machine clients, the status requests sent to
 * them, the inbound Cargo-IMP mail log and every forwarder's XTD usage.
 */
import { CarrierMessageSchema, CarrierSchema, CarrierSettingsSchema } from "../schemas/carriers.ts";
import { InboundMailEntrySchema } from "../schemas/inbound-mail.ts";
import { PageRequestSchema, pagedSchema } from "../schemas/paging.ts";
import {
  AllXtdUsageSchema,
  CarrierStatusRequestReplaySchema,
  CarrierStatusRequestSchema,
  MonthPageQuerySchema,
} from "../schemas/status-requests.ts";
import {
  CarrierTenantResponseSchema,
  cursorPagedSchema,
  DeletedCarrierResponseSchema,
  TenantPageRequestSchema,
} from "../schemas/tenants.ts";
import { ATTEMPT_EXAMPLE, cursorPageOf, pageOf } from "./examples.ts";
import { component, type RouteApis } from "./route-api.ts";
import {
  CLIENT,
  CLIENT_LIST,
  CLIENT_REQUEST,
  CREATED_CLIENT,
  CURSOR_PAGING,
  IDEMPOTENT,
  NEW_CLIENT,
  ROTATE,
} from "./support-forwarders.ts";

const SETTINGS_EXAMPLE = {
  Name: "Lufthansa Cargo",
  QualityProgram: true,
  Xtd: true,
  Planning: {
    Offsets: { DepAfterStd: 60 },
    RoadFeederFlightNumbers: [{ CarrierCode: "LH", Pattern: "9\\d{3}" }],
  },
  InboundSenders: ["fsu@gateway.carrier.example"],
  StatusRequests: {
    Channel: "Url" as const,
    Url: "https://gateway.carrier.example/fsr",
    Format: "cargo-imp" as const,
  },
};

const CARRIER = component("Carrier", CarrierSchema, {
  AirlinePrefix: "020",
  ...SETTINGS_EXAMPLE,
});

const CARRIER_TENANT_EXAMPLE = {
  AirlinePrefix: "020",
  Name: "Lufthansa Cargo",
  QualityProgram: true,
  Xtd: true,
  Enabled: true,
};
const CARRIER_TENANT = component("CarrierTenant", CarrierTenantResponseSchema, CARRIER_TENANT_EXAMPLE);

const STATUS_REQUEST_EXAMPLE = {
  RequestId: "SR-1795857164000-02012345675",
  AwbNumber: "020-12345675",
  ForwarderIdentifier: "ACMECARGO",
  IsXTD: true,
  Status: "delivered" as const,
  CreatedAt: "2026-11-28T09:12:44Z",
  UpdatedAt: "2026-11-28T09:12:45Z",
  Attempts: [ATTEMPT_EXAMPLE],
};

const INBOUND_MAIL_PAGE = component(
  "InboundMailPage",
  cursorPagedSchema(InboundMailEntrySchema),
  cursorPageOf({
    MessageId: "<20261128091500.4711@gateway.carrier.example>",
    Sender: "fsu@gateway.carrier.example",
    Subject: "FSU 020-12345675",
    ReceivedAt: "2026-11-28T09:15:02Z",
    CarrierPrefix: "020",
    Outcome: "applied" as const,
    Reason: null,
    Line: null,
    Applied: [{ AwbNumber: "020-12345675", Changed: true, Events: ["RCS"] }],
    Replied: false,
  }),
);

export const SUPPORT_CARRIER_ROUTES = {
  "put-carrier": {
    summary: "Create or update a carrier's participation (quality program, XTD)",
    tag: "support",
    body: component("CarrierSettings", CarrierSettingsSchema, SETTINGS_EXAMPLE),
    response: CARRIER,
    errors: [400, 409, 422],
  },
  "get-carrier": {
    summary: "Read a carrier's participation",
    tag: "support",
    response: CARRIER,
    errors: [400, 404],
  },
  "list-carriers": {
    summary:
      "Onboarded carriers in prefix order (a carrier is onboarded by PUT /support/carriers/{prefix}), each " +
      `with its settings and Enabled.${CURSOR_PAGING}`,
    tag: "support",
    query: TenantPageRequestSchema,
    response: component(
      "CarrierTenantPage",
      cursorPagedSchema(CarrierTenantResponseSchema),
      cursorPageOf(CARRIER_TENANT_EXAMPLE),
    ),
  },
  "delete-carrier": {
    summary:
      "Offboard a carrier's access: each of its clients is deregistered and deleted with its tenant " +
      "profile. Its settings stay (PUT enables it again). 404 for a carrier without settings.",
    tag: "support",
    response: component("DeletedCarrier", DeletedCarrierResponseSchema, {
      AirlinePrefix: "020",
      DeletedClients: ["4k8q2m7v1n5p9r3t6w0y2b4d6f"],
    }),
    errors: [400, 404],
  },
  "disable-carrier": {
    summary: `Switch a carrier off: none of its clients gets a token.${IDEMPOTENT}`,
    tag: "support",
    response: CARRIER_TENANT,
    errors: [400, 404],
  },
  "enable-carrier": {
    summary: `Switch a carrier on again.${IDEMPOTENT}`,
    tag: "support",
    response: CARRIER_TENANT,
    errors: [400, 404],
  },
  "create-carrier-client": {
    summary: `A new machine client of the carrier (its settings must be stored first, else 404).${NEW_CLIENT}`,
    tag: "support",
    body: CLIENT_REQUEST,
    status: 201,
    response: CREATED_CLIENT,
    errors: [400, 404],
  },
  "list-carrier-clients": {
    summary: "The carrier's machine clients, oldest first, without secrets",
    tag: "support",
    response: CLIENT_LIST,
    errors: [400, 404],
  },
  "delete-carrier-client": {
    summary: `Delete one of the carrier's clients: its next token request gets 401 invalid_client.${ROTATE}`,
    tag: "support",
    response: CLIENT,
    errors: [400, 404],
  },
  "disable-carrier-client": {
    summary: `Switch one of the carrier's clients off (no token).${IDEMPOTENT}`,
    tag: "support",
    response: CLIENT,
    errors: [400, 404],
  },
  "enable-carrier-client": {
    summary: `Switch one of the carrier's clients on again.${IDEMPOTENT}`,
    tag: "support",
    response: CLIENT,
    errors: [400, 404],
  },
  "list-carrier-inbound-mail": {
    summary:
      "The carrier's received Cargo-IMP e-mails, newest first: sender, subject, received, Outcome (applied, or " +
      "refused with its Reason and Line) and what was applied; and every body POST /carrier/messages refused " +
      "(Sender api, Subject its content type, MessageId the request id, Reason and Line); kept 30 days. 404 " +
      "without carrier settings." +
      CURSOR_PAGING,
    tag: "support",
    query: TenantPageRequestSchema,
    response: INBOUND_MAIL_PAGE,
    errors: [400, 404],
  },
  "get-carrier-message": {
    summary:
      "The raw message a receipt kept, exactly as received: the ReceiptId a route map's history names for " +
      "each change and status message (Provenance), so support can show where an actual came from. Kept 30 " +
      "days from receipt; 404 for an unknown, expired or another carrier's receipt.",
    tag: "support",
    response: component("CarrierMessage", CarrierMessageSchema, {
      ReceiptId: "20261128T081005Z-3f9a1c2b7e",
      Carrier: "020",
      Channel: "Email",
      ReceivedAt: "2026-11-28T08:10:05.120Z",
      ContentType: "text/plain",
      FetchedFrom: null,
      Body: "FSU/15\n020-12345675FRAJFK/T10K250.0\nDEP/LH400/28NOV/FRAJFK/T10K250.0/A0905\n",
    }),
    errors: [400, 404],
  },
  "list-unknown-sender-mail": {
    summary:
      "E-mails to the inbound address from senders no carrier registered (InboundSenders): refused, nothing " +
      `changed, never answered; newest first, kept 30 days.${CURSOR_PAGING}`,
    tag: "support",
    query: TenantPageRequestSchema,
    response: INBOUND_MAIL_PAGE,
  },
  "list-carrier-status-requests": {
    summary:
      "The carrier's status requests (FSR, one per AWB and collapse window), newest first, kept 30 days, with " +
      "their delivery state and attempt log",
    tag: "support",
    query: PageRequestSchema,
    response: component(
      "CarrierStatusRequestPage",
      pagedSchema(CarrierStatusRequestSchema),
      pageOf(STATUS_REQUEST_EXAMPLE),
    ),
    errors: [400, 404],
  },
  "replay-carrier-status-request": {
    summary:
      "Send a delivered or parked status request again as one new attempt, through the carrier's channel as " +
      "it is now; 202 (409 while it is still being attempted)",
    tag: "support",
    status: 202,
    response: component("CarrierStatusRequestReplay", CarrierStatusRequestReplaySchema, {
      ...STATUS_REQUEST_EXAMPLE,
      ReplayAttempt: 2,
    }),
    errors: [400, 404, 409],
  },
  "list-xtd-usage": {
    summary: "Every forwarder's count of XTD requests in a month (UTC, ?month=YYYY-MM)",
    tag: "support",
    query: MonthPageQuerySchema,
    response: component("AllXtdUsage", AllXtdUsageSchema, {
      Month: "2026-11",
      XtdRequests: 3,
      ...pageOf({ ForwarderIdentifier: "ACMECARGO", XtdRequests: 3 }),
    }),
  },
} satisfies RouteApis;
