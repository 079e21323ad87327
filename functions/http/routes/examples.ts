/**
 * Example values shared by several components: a route map as GET answers it (one FRA-JFK flight,
 * received and accepted, not yet flown), a delivery with its attempts, and the paged answers' frames.
 */
import type * as v from "valibot";
import type { AttemptSchema, DeliverySchema } from "../schemas/notifications.ts";
import type { RouteMapSchema } from "../schemas/route-maps.ts";

type RouteMap = v.InferInput<typeof RouteMapSchema>;
type Milestone = RouteMap["MilestonePlan"]["OriginCycle"]["Milestone"][number];
type Totals = RouteMap["Shipment"]["Total"];

const pair = (utc: string, local: string) => ({ Utc: utc, Local: local });

function milestone(
  name: Milestone["Name"],
  station: string,
  planned: [string, string],
  actual: [string, string] | null = null,
  status: Milestone["Status"] = actual ? "Ok" : "Planned",
): Milestone {
  return {
    Status: status,
    ArchivedStatus: status,
    Name: name,
    Station: station,
    PlannedDateTime: pair(...planned),
    ActualDateTime: actual ? pair(...actual) : null,
    IsReplanned: false,
    ActualNoOfPieces: actual ? 10 : 0,
  };
}

const totals = (volume: boolean): Totals => ({
  NoOfPieces: 10,
  WeightCode: "K",
  Weight: 250,
  VolumeCode: volume ? "CM" : null,
  Volume: volume ? 1.5 : null,
});

const RCS_ACTUAL: [string, string] = ["2026-11-28T08:10:00Z", "2026-11-28T09:10:00"];
const CREATED: [string, string] = ["2026-11-28T01:54:37Z", "2026-11-28T02:54:37"];

export const ROUTE_MAP_EXAMPLE: RouteMap = {
  MilestonePlan: {
    OriginCycle: {
      Milestone: [
        milestone("FWB", "FRA", ["2026-11-28T06:20:00Z", "2026-11-28T07:20:00"], CREATED),
        milestone("LAT", "FRA", ["2026-11-28T06:25:00Z", "2026-11-28T07:25:00"], RCS_ACTUAL, "Ko"),
        milestone("RCS", "FRA", ["2026-11-28T10:25:00Z", "2026-11-28T11:25:00"], RCS_ACTUAL),
      ],
      Status: "Completed",
      isReplanned: false,
    },
    RoutingCycle: {
      Flight: [
        {
          FlightInfo: {
            CarrierCode: "LH",
            Number: "400",
            Date: "28NOV",
            Scheduled: {
              DepartureDateTime: pair("2026-11-28T12:25:00Z", "2026-11-28T13:25:00"),
              ArrivalDateTime: pair("2026-11-28T20:55:00Z", "2026-11-28T15:55:00"),
            },
            Actual: null,
            Routing: { Origin: "FRA", Destination: "JFK" },
            isRoadFeederService: false,
          },
          Total: totals(false),
          PlannedTotal: totals(false),
          Milestone: [
            milestone("DEP", "FRA", ["2026-11-28T13:25:00Z", "2026-11-28T14:25:00"]),
            milestone("ARR", "JFK", ["2026-11-28T21:55:00Z", "2026-11-28T16:55:00"]),
            milestone("RCF", "JFK", ["2026-11-29T01:55:00Z", "2026-11-28T20:55:00"]),
          ],
        },
      ],
      Status: "Planned",
      isReplanned: false,
    },
    DestinationCycle: {
      Milestone: [
        milestone("NFD", "JFK", ["2026-11-29T02:55:00Z", "2026-11-28T21:55:00"]),
        milestone("AWD", "JFK", ["2026-11-29T04:55:00Z", "2026-11-28T23:55:00"]),
        milestone("DLV", "JFK", ["2026-12-01T20:55:00Z", "2026-12-01T15:55:00"]),
      ],
      Status: "Planned",
      isReplanned: false,
    },
  },
  LastUpdate: "2026-11-28T08:10:05Z",
  Shipment: {
    AirlinePrefix: "020",
    AwbNumber: "12345675",
    Routing: { Origin: "FRA", Destination: "JFK" },
    Total: totals(true),
  },
  DeliveryDate: null,
  ReceiptDate: pair(...RCS_ACTUAL),
  ProductCode: null,
  IsRoadFeederService: false,
  Status: "Accepted",
  IsReplanned: false,
  RoutingIsReplanned: false,
  OriginState: 1,
  RoutingState: 0,
  DestinationState: 0,
  Origin: null,
  Routing: null,
  Destination: null,
  CreationDate: pair(...CREATED),
};

export const ATTEMPT_EXAMPLE: v.InferInput<typeof AttemptSchema> = {
  Attempt: 1,
  At: "2026-11-28T13:41:07Z",
  HttpStatus: 204,
  LatencyMs: 183,
  Outcome: "delivered",
  Detail: "",
  NextAttemptAt: null,
};

export const DELIVERY_EXAMPLE: v.InferInput<typeof DeliverySchema> = {
  DeliveryId: "02012345675-4-0:webhook-7",
  EventId: "02012345675-4-0",
  Event: "DEP",
  Type: "Event",
  AwbNumber: "020-12345675",
  SubscriptionKind: "webhook",
  SubscriptionId: 7,
  Status: "delivered",
  CreatedAt: "2026-11-28T13:41:06Z",
  UpdatedAt: "2026-11-28T13:41:07Z",
  Attempts: [ATTEMPT_EXAMPLE],
};

/** `{ TotalItems, TotalPages, PageSize, CurrentPage, Items }` around one example item. */
export const pageOf = <T>(item: T) => ({
  TotalItems: 1,
  TotalPages: 1,
  PageSize: 100,
  CurrentPage: 1,
  Items: [item],
});

/** `{ Items, NextCursor }` (the tenant lists) around one example item, the last page. */
export const cursorPageOf = <T>(item: T) => ({ Items: [item], NextCursor: null });
