/**
 * Route maps through the real local runner: a carrier reports a two-leg booking (the first
 * leg a road feeder), the FWB, a late RCS and an on-time DEP, with dates relative to now; the owner
 * reads the route map and its history, a replan shows up, and nobody else sees any of it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RouteMap } from "../../functions/core/route-map/spec-types.ts";
import {
  RouteMapHistorySchema,
  RouteMapSchema,
  RouteMapSearchResultSchema,
} from "../../functions/http/schemas/route-maps.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { expectExactKeys, HOUR, iso, local, MINUTE, minuteNow, partitionItems } from "./route-map-helpers.ts";

let stack: RunningStack;
const owner = tokens.forwarder("ACMECARGO", "1234567", "0001");
const stranger = tokens.forwarder("FWD2", "7654321", "0042");
const carrier = tokens.carrier("020");
const AWB = "02012345675";
const PATH = `/ffw/service/routemap/${AWB}`;

// Timeline (now = N): truck HAJ->FRA STD N-2h STA N-1h30; flight FRA->JFK STD N+2h STA N+10h.
const N = minuteNow();
const truckStd = N - 2 * HOUR;
const truckSta = N - 90 * MINUTE;
const flightStd = N + 2 * HOUR;
const flightSta = N + 10 * HOUR;
const rcsActual = N - 3 * HOUR; // planned N-4h: late (Ko)
const depActual = N - 110 * MINUTE; // planned STD+1h = N-1h: on time (Ok)

function booking(secondFlight = "400") {
  return {
    Type: "BKD",
    AirlinePrefix: "020",
    AwbNumber: "12345675",
    Origin: "HAJ",
    Destination: "JFK",
    Pieces: 10,
    WeightCode: "K",
    Weight: 250,
    Legs: [
      {
        CarrierCode: "LH",
        FlightNumber: "9350",
        Date: local("HAJ", truckStd).date,
        Origin: "HAJ",
        Destination: "FRA",
        ScheduledDeparture: local("HAJ", truckStd).jsonForm,
        ScheduledArrival: local("FRA", truckSta).jsonForm,
        IsRoadFeederService: true,
      },
      {
        CarrierCode: "LH",
        FlightNumber: secondFlight,
        Date: local("FRA", flightStd).date,
        Origin: "FRA",
        Destination: "JFK",
        ScheduledDeparture: local("FRA", flightStd).jsonForm,
        ScheduledArrival: local("JFK", flightSta).jsonForm,
        IsRoadFeederService: false,
      },
    ],
  };
}
const FWB = "FWB/16\n020-12345675HAJJFK/T10K250.0MC1.5\nAGT//1234567/0001\n/ACME FORWARDING\n";
const rcs = () => {
  const t = local("HAJ", rcsActual);
  return `FSU/13\n020-12345675HAJJFK/T10K250.0\nRCS/${t.ddmmm}${t.hhmm}/HAJ/T10K250.0\n`;
};
const dep = () => {
  const t = local("HAJ", depActual);
  return `FSU/13\n020-12345675HAJJFK/T10K250.0\nDEP/LH9350/${t.ddmmm}/HAJFRA/T10K250.0/A${t.hhmm}\n`;
};

const postJson = (json: unknown) => call(stack.url, "POST", "/carrier/messages", { token: carrier, json });
const postText = (body: string, contentType = "text/plain") =>
  call(stack.url, "POST", "/carrier/messages", { token: carrier, body, contentType });
const milestone = (list: RouteMap["MilestonePlan"]["OriginCycle"]["Milestone"], name: string) => {
  const found = list.find((m) => m.Name === name);
  if (!found) throw new Error(`no ${name}`);
  return found;
};
const minus = (ms: number, minutes: number) => iso(ms - minutes * MINUTE);

beforeAll(async () => {
  stack = await startRunner();
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: tokens.support(),
    json: { Name: "Lufthansa Cargo", QualityProgram: true, Xtd: true },
  });
  expect(put.status).toBe(200);
});

afterAll(async () => {
  await stack?.stop();
});

describe("carrier messages to route map", () => {
  it("applies booking, FWB, late RCS and on-time DEP, each answered with what changed", async () => {
    const bkd = await postJson(booking());
    expect(bkd.status).toBe(200);
    expect(bkd.body).toEqual({ Applied: [{ AwbNumber: "020-12345675", Changed: true, Events: ["RMP"] }] });
    expect((await postText(FWB)).body).toEqual({
      Applied: [{ AwbNumber: "020-12345675", Changed: true, Events: ["FWB"] }],
    });
    expect((await postText(rcs())).body).toEqual({
      Applied: [{ AwbNumber: "020-12345675", Changed: true, Events: ["RCS", "LAT"] }],
    });
    expect((await postText(dep())).body).toEqual({
      Applied: [{ AwbNumber: "020-12345675", Changed: true, Events: ["DEP"] }],
    });
  });

  it("shows planned times from the offsets, Ko/Ok/Missing and the cycle statuses", async () => {
    const response = await call(stack.url, "GET", PATH, { token: owner });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toContain("application/json");
    const map = response.body as RouteMap;
    const origin = map.MilestonePlan.OriginCycle;
    const [truck, flight] = map.MilestonePlan.RoutingCycle.Flight;
    if (!truck || !flight) throw new Error("two legs expected");

    // DESIGN.md section 4 offsets.
    expect(milestone(origin.Milestone, "FWB").PlannedDateTime?.Utc).toBe(minus(truckStd, 365));
    expect(milestone(origin.Milestone, "LAT").PlannedDateTime?.Utc).toBe(minus(truckStd, 360));
    expect(milestone(origin.Milestone, "RCS").PlannedDateTime?.Utc).toBe(minus(truckStd, 120));
    expect(milestone(truck.Milestone, "DEP").PlannedDateTime?.Utc).toBe(minus(truckStd, -60));
    expect(milestone(truck.Milestone, "ARR").PlannedDateTime?.Utc).toBe(minus(truckSta, -40)); // road feeder
    expect(milestone(truck.Milestone, "RCF").PlannedDateTime?.Utc).toBe(minus(truckSta, -45));
    expect(milestone(flight.Milestone, "DEP").PlannedDateTime?.Utc).toBe(minus(flightStd, -60));
    expect(milestone(flight.Milestone, "ARR").PlannedDateTime?.Utc).toBe(minus(flightSta, -60));
    expect(milestone(flight.Milestone, "RCF").PlannedDateTime?.Utc).toBe(minus(flightSta, -300));
    const destination = map.MilestonePlan.DestinationCycle.Milestone;
    expect(milestone(destination, "NFD").PlannedDateTime?.Utc).toBe(minus(flightSta, -360));
    expect(milestone(destination, "AWD").PlannedDateTime?.Utc).toBe(minus(flightSta, -480));
    expect(milestone(destination, "DLV").PlannedDateTime?.Utc).toBe(minus(flightSta, -72 * 60));

    expect(milestone(origin.Milestone, "RCS")).toMatchObject({ Status: "Ko", ActualNoOfPieces: 10 });
    expect(milestone(origin.Milestone, "RCS").ActualDateTime?.Utc).toBe(iso(rcsActual));
    expect(milestone(truck.Milestone, "DEP")).toMatchObject({ Status: "Ok", Station: "HAJ" });
    expect(milestone(truck.Milestone, "ARR")).toMatchObject({
      Status: "Missing",
      ActualDateTime: null,
      Station: "FRA",
    });
    expect(milestone(flight.Milestone, "DEP").Status).toBe("Planned");

    // Origin: FWB, LAT (settled by the RCS) and RCS all have actuals, so the rules make it Completed.
    expect(origin.Status).toBe("Completed");
    expect(map.MilestonePlan.RoutingCycle.Status).toBe("Partial");
    expect(map.MilestonePlan.DestinationCycle.Status).toBe("Planned");
    expect([map.OriginState, map.RoutingState, map.DestinationState]).toEqual([1, 2, 0]);

    expect(truck.FlightInfo).toMatchObject({ CarrierCode: "LH", Number: "9350", isRoadFeederService: true });
    expect(truck.FlightInfo.Date).toBe(local("HAJ", truckStd).ddmmm);
    expect(truck.FlightInfo.Actual?.DepartureDateTime?.Utc).toBe(iso(depActual));
    expect(flight.FlightInfo.isRoadFeederService).toBe(false);
    expect(map).toMatchObject({
      IsRoadFeederService: true,
      Status: "OnAir",
      IsReplanned: false,
      RoutingIsReplanned: false,
      Origin: null,
      Routing: null,
      Destination: null,
      DeliveryDate: null,
    });
    expect(map.ReceiptDate?.Utc).toBe(iso(rcsActual));
    expect(map.Shipment).toEqual({
      AirlinePrefix: "020",
      AwbNumber: "12345675",
      Routing: { Origin: "HAJ", Destination: "JFK" },
      Total: { NoOfPieces: 10, WeightCode: "K", Weight: 250, VolumeCode: "CM", Volume: 1.5 },
    });
  });

  it("keeps one snapshot per change; repeats change nothing", async () => {
    const repeat = await postText(dep());
    expect(repeat.body).toEqual({ Applied: [{ AwbNumber: "020-12345675", Changed: false, Events: [] }] });
    const history = await call(stack.url, "GET", `${PATH}/history`, { token: owner });
    expect(history.status).toBe(200);
    const body = history.body as {
      RouteMap: RouteMap;
      Snapshots: Array<{ SnapshotDate: { Utc: string }; RouteMap: RouteMap }>;
    };
    expect(body.Snapshots).toHaveLength(4); // BKD, FWB, RCS, DEP
    expect(body.Snapshots.map((s) => s.RouteMap.Status)).toEqual(["OnAir", "Accepted", "Booked", "Booked"]);
    const dates = body.Snapshots.map((s) => s.SnapshotDate.Utc);
    expect([...dates].sort().reverse()).toEqual(dates);
    expect(await partitionItems(stack.dynamoEndpoint, AWB, "SNAP#")).toHaveLength(4);
  });

  it("marks a changed booking as a routing replan and emits RMP/Replan", async () => {
    const replan = await postJson(booking("402"));
    expect(replan.body).toEqual({ Applied: [{ AwbNumber: "020-12345675", Changed: true, Events: ["RMP"] }] });
    const map = (await call(stack.url, "GET", PATH, { token: owner })).body as RouteMap;
    expect(map.RoutingIsReplanned).toBe(true);
    expect(map.MilestonePlan.RoutingCycle.Flight[1]?.FlightInfo.Number).toBe("402");
    expect(map.MilestonePlan.RoutingCycle.isReplanned).toBe(true);

    const events = await partitionItems(stack.dynamoEndpoint, AWB, "EVT#");
    expect(events.every((item) => item.kind === "event")).toBe(true);
    const rmp = events.filter((item) => item.event.name === "RMP").map((item) => item.event.eventStatus);
    // The booking's Creation (no reader yet), the owner's own Creation when the FWB named it (owners
    // learn late, addressed to it alone), then the Replan.
    expect(rmp).toEqual(["Creation", "Creation", "Replan"]);
    expect(
      events
        .filter((item) => item.event.name === "RMP" && item.event.eventStatus === "Creation")
        .map((item) => item.event.audience.ownerAgent),
    ).toEqual([null, { code: "1234567", cass: "0001" }]);
    const replanEvent = events.find(
      (item) => item.event.name === "RMP" && item.event.eventStatus === "Replan",
    );
    expect(replanEvent?.event.audience).toEqual({
      ownerAgent: { code: "1234567", cass: "0001" },
      xtdForwarders: [],
    });
    expect(await partitionItems(stack.dynamoEndpoint, AWB, "SNAP#")).toHaveLength(5);
  });

  it("shows the route map to its owner only, also under the service prefix", async () => {
    expect((await call(stack.url, "GET", `/api.routemap${PATH}`, { token: owner })).status).toBe(200);
    expect(
      (await call(stack.url, "GET", "/ffw/service/routemap/020-12345675", { token: owner })).status,
    ).toBe(200);
    for (const path of [PATH, `${PATH}/history`, `/api.routemap${PATH}`]) {
      const response = await call(stack.url, "GET", path, { token: stranger });
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type")).toContain("application/problem+json");
    }
    const badDigit = await call(stack.url, "GET", "/ffw/service/routemap/02012345670", { token: owner });
    expect(badDigit.status).toBe(400);
    expect((badDigit.body as { detail: string }).detail).toContain("must be 5");
  });
});

describe("response fields are exactly the spec's", () => {
  it("for retrieve, history and search", async () => {
    const get = await call(stack.url, "GET", PATH, { token: owner });
    expectExactKeys(get.body, RouteMapSchema as never);
    const history = await call(stack.url, "GET", `${PATH}/history`, { token: owner });
    expectExactKeys(history.body, RouteMapHistorySchema as never);
    const search = await call(stack.url, "POST", "/ffw/service/routemap", { token: owner, json: {} });
    expect(search.status).toBe(200);
    expect((search.body as { TotalItems: number }).TotalItems).toBe(1);
    expectExactKeys(search.body, RouteMapSearchResultSchema as never);
  });

  it("RouteMapSchema lists the spec's route-map fields", () => {
    // spec "Route map", "Shipment", "Totals object": field tables.
    expect(Object.keys(RouteMapSchema.entries).sort()).toEqual(
      [
        "MilestonePlan",
        "LastUpdate",
        "Shipment",
        "DeliveryDate",
        "ReceiptDate",
        "ProductCode",
        "IsRoadFeederService",
        "Status",
        "IsReplanned",
        "RoutingIsReplanned",
        "OriginState",
        "RoutingState",
        "DestinationState",
        "Origin",
        "Routing",
        "Destination",
        "CreationDate",
      ].sort(),
    );
    expect(Object.keys(RouteMapSchema.entries.Shipment.entries).sort()).toEqual(
      ["AirlinePrefix", "AwbNumber", "Routing", "Total"].sort(),
    );
    expect(Object.keys(RouteMapSchema.entries.Shipment.entries.Total.entries).sort()).toEqual(
      ["NoOfPieces", "WeightCode", "Weight", "VolumeCode", "Volume"].sort(),
    );
  });
});

describe("bad carrier input changes nothing", () => {
  it("answers 400 naming the line of a malformed message", async () => {
    const response = await postText("FSU/13\n020-12345675HAJJFK/T10\nRCS/99XYZ0910/HAJ/T10\n");
    expect(response.status).toBe(400);
    const problem = response.body as { detail: string; errors: Array<{ field: string; message: string }> };
    expect(problem.errors[0]?.field).toBe("line 3");
    expect(problem.errors[0]?.message).toMatch(/^expected .+, found /);
    expect(problem.detail).toContain("Line 3");
  });

  it("answers 400 with a line for malformed JSON and invalid JSON events", async () => {
    const broken = await postText('{\n  "Type": "BKD",\n  oops\n}', "application/json");
    expect(broken.status).toBe(400);
    expect((broken.body as { errors: Array<{ field: string }> }).errors[0]?.field).toMatch(/^line \d+/);
  });

  it("answers 403 when a carrier reports another carrier's AWB, and stores nothing", async () => {
    const before = await partitionItems(stack.dynamoEndpoint, "05712345675", "");
    const body = `FSU/13\n020-12345686HAJJFK/T1\nRCS/01JAN0900/HAJ/T1\n\nFSU/13\n057-12345675HAJJFK/T1\nRCS/01JAN0900/HAJ/T1\n`;
    const response = await postText(body);
    expect(response.status).toBe(403);
    expect((response.body as { detail: string }).detail).toContain("057-12345675");
    expect(before).toEqual([]);
    expect(await partitionItems(stack.dynamoEndpoint, "05712345675", "")).toEqual([]);
    expect(await partitionItems(stack.dynamoEndpoint, "02012345686", "")).toEqual([]);
  });

  it("answers 415 for a content type it does not parse", async () => {
    const response = await postText("FSU/13", "application/pdf");
    expect(response.status).toBe(415);
    expect(response.headers.get("content-type")).toContain("application/problem+json");
  });

  it("answers 422 naming the line of an unknown station, and stores nothing of the body", async () => {
    const body =
      "FSU/13\n020-12345686HAJJFK/T1\nRCS/01JAN0900/HAJ/T1\n\nFSU/13\n020-12345686HAJJFK/T1\nRCS/01JAN0900/QQQ/T1\n";
    const response = await postText(body);
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      errors: [{ field: "line 7", message: 'expected a known IATA airport code, found "QQQ"' }],
    });
    expect(await partitionItems(stack.dynamoEndpoint, "02012345686", "")).toEqual([]);
  });

  it("answers 422 naming the line and field path of an unknown station in JSON", async () => {
    const json = {
      Type: "RCS",
      AirlinePrefix: "020",
      AwbNumber: "12345686",
      Origin: "HAJ",
      Destination: "JFK",
      Station: "QQQ",
      Time: local("HAJ", N).jsonForm,
    };
    const response = await postText(JSON.stringify(json, null, 2), "application/json");
    expect(response.status).toBe(422);
    expect(response.body).toMatchObject({
      errors: [{ field: "line 7: Station", message: 'expected a known IATA airport code, found "QQQ"' }],
    });
  });
});
