/** Route maps for the app's unit tests, shaped as GET /ffw/service/routemap/{awb} answers them. */
import type { Milestone, MilestoneStatus, RouteMap } from "../../../functions/core/route-map/spec-types.ts";

export const pair = (utc: string, local: string) => ({ Utc: utc, Local: local });

export function milestone(
  name: Milestone["Name"],
  station: string,
  status: MilestoneStatus,
  planned: ReturnType<typeof pair> | null,
  actual: ReturnType<typeof pair> | null = null,
  pieces = 0,
): Milestone {
  return {
    Status: status,
    ArchivedStatus: status,
    Name: name,
    Station: station,
    PlannedDateTime: planned,
    ActualDateTime: actual,
    IsReplanned: false,
    ActualNoOfPieces: pieces,
  };
}

const totals = (pieces: number) => ({
  NoOfPieces: pieces,
  WeightCode: "K",
  Weight: 250,
  VolumeCode: null,
  Volume: null,
});

/** HAJ → FRA by truck, FRA → JFK on LH400; RCS reported 45 min late. */
export function routeMap(): RouteMap {
  return {
    MilestonePlan: {
      OriginCycle: {
        Milestone: [
          milestone(
            "RCS",
            "HAJ",
            "Ko",
            pair("2026-03-14T08:00:00Z", "2026-03-14T09:00:00"),
            pair("2026-03-14T08:45:00Z", "2026-03-14T09:45:00"),
            10,
          ),
        ],
        Status: "Completed",
        isReplanned: false,
      },
      RoutingCycle: {
        Flight: [
          {
            FlightInfo: {
              CarrierCode: "LH",
              Number: "9350",
              Date: "14MAR",
              Scheduled: {
                DepartureDateTime: pair("2026-03-14T10:00:00Z", "2026-03-14T11:00:00"),
                ArrivalDateTime: pair("2026-03-14T11:00:00Z", "2026-03-14T12:00:00"),
              },
              Actual: null,
              Routing: { Origin: "HAJ", Destination: "FRA" },
              isRoadFeederService: true,
            },
            Total: totals(10),
            PlannedTotal: null,
            Milestone: [
              milestone(
                "DEP",
                "HAJ",
                "Ok",
                pair("2026-03-14T11:00:00Z", "2026-03-14T12:00:00"),
                pair("2026-03-14T10:50:00Z", "2026-03-14T11:50:00"),
                6,
              ),
            ],
          },
          {
            FlightInfo: {
              CarrierCode: "LH",
              Number: "400",
              Date: "14MAR",
              Scheduled: {
                DepartureDateTime: pair("2026-03-14T13:25:00Z", "2026-03-14T14:25:00"),
                ArrivalDateTime: pair("2026-03-14T21:30:00Z", "2026-03-14T17:30:00"),
              },
              Actual: null,
              Routing: { Origin: "FRA", Destination: "JFK" },
              isRoadFeederService: false,
            },
            Total: totals(10),
            PlannedTotal: null,
            Milestone: [
              milestone("DEP", "FRA", "Planned", pair("2026-03-14T14:25:00Z", "2026-03-14T15:25:00")),
            ],
          },
        ],
        Status: "Partial",
        isReplanned: false,
      },
      DestinationCycle: {
        Milestone: [milestone("DLV", "JFK", "Planned", pair("2026-03-16T14:00:00Z", "2026-03-16T10:00:00"))],
        Status: "Planned",
        isReplanned: false,
      },
    },
    LastUpdate: "2026-03-14T10:50:00Z",
    Shipment: {
      AirlinePrefix: "020",
      AwbNumber: "12345675",
      Routing: { Origin: "HAJ", Destination: "JFK" },
      Total: totals(10),
    },
    DeliveryDate: null,
    ReceiptDate: pair("2026-03-14T08:45:00Z", "2026-03-14T09:45:00"),
    ProductCode: null,
    IsRoadFeederService: true,
    Status: "OnAir",
    IsReplanned: false,
    RoutingIsReplanned: false,
    OriginState: 1,
    RoutingState: 0,
    DestinationState: 0,
    Origin: null,
    Routing: null,
    Destination: null,
    CreationDate: pair("2026-03-13T08:00:00Z", "2026-03-13T09:00:00"),
  };
}
