import { describe, expect, it } from "vitest";
import {
  ForeignAwbError,
  IngestInterruptedError,
  MessageParseError,
  RouteMapNotFoundError,
  UnplaceableMessageError,
  WriteConflictError,
  WriteTooLargeError,
} from "../../../functions/core/errors.ts";
import type { TriggerRecord } from "../../../functions/core/ports/route-maps.ts";
import { renderRouteMap } from "../../../functions/core/route-map/render.ts";
import type { RouteMap } from "../../../functions/core/route-map/spec-types.ts";
import { getRouteMap } from "../../../functions/core/use-cases/get-route-map.ts";
import { getRouteMapHistory } from "../../../functions/core/use-cases/get-route-map-history.ts";
import { ingestCarrierMessage } from "../../../functions/core/use-cases/ingest-carrier-message.ts";
import { ProblemError, toProblem } from "../../../functions/http/problems.ts";
import { fixture } from "../carrier-messages/helpers.ts";
import { AWB, BKD_TWO_LEGS, EPOCH, FWB, fsu, harness, OTHER, OWNER, T0, withRouteMaps } from "./support.ts";

const later = (iso: string, minutes: number) => new Date(Date.parse(iso) + minutes * 60_000).toISOString();
/** An XTD sendsme as the repository records it while the AWB has no route map. */
const earlyXtd = (forwarderId: string): TriggerRecord => ({
  awb: AWB,
  program: "XTD",
  forwarderId,
  agent: { code: OTHER.agentCode, cass: OTHER.agentCass },
  requestedAt: T0,
});

describe("ingestCarrierMessage", () => {
  it("creates the route map with its snapshot and outbox events in one write per change", async () => {
    const h = harness();
    const applied = await h.imp(BKD_TWO_LEGS, T0);
    expect(applied).toEqual([{ awb: AWB, changed: true, events: ["RMP"] }]);
    const fwb = await h.imp(FWB, later(T0, 10));
    expect(fwb[0]?.events).toEqual(["FWB"]);

    const record = await h.routeMaps.get(AWB);
    expect(record?.version).toBe(2);
    expect(record?.ownerAgent).toEqual({ code: "1234567", cass: "0001" });
    expect(h.routeMaps.operations.write).toBe(2);
    expect(await h.routeMaps.snapshots(AWB, EPOCH)).toHaveLength(2);
    // The owner the FWB names learns late: its own RMP Creation, addressed to it alone (the booking's
    // creation had no reader).
    expect(h.routeMaps.events.map((e) => [e.name, e.eventStatus, e.eventId])).toEqual([
      ["RMP", "Creation", "02012345675-1-0"],
      ["FWB", "Update", "02012345675-2-0"],
      ["RMP", "Creation", "02012345675-2-1"],
    ]);
    const fwbEvent = h.routeMaps.events[1];
    expect(fwbEvent?.audience).toEqual({ ownerAgent: { code: "1234567", cass: "0001" }, xtdForwarders: [] });
    expect(fwbEvent?.version).toBe(2);
    expect(h.routeMaps.events[2]?.audience).toEqual({
      ownerAgent: { code: "1234567", cass: "0001" },
      xtdForwarders: [],
    });
  });

  it("reads a new AWB once: one read and one write per change, later messages of the body read nothing", async () => {
    const h = harness();
    await h.imp(`${BKD_TWO_LEGS}${FWB}`, T0);
    expect(h.routeMaps.operations).toEqual({ getForChange: 1, write: 2 });
    expect((await h.routeMaps.get(AWB))?.version).toBe(2);
  });

  it("starts a new route map with the XTD grants recorded before it, its creation event addressed to them", async () => {
    const h = harness();
    for (const id of ["FWD3", "FWD2", "FWD3"])
      expect(await h.routeMaps.putTrigger(earlyXtd(id), { onlyWithoutRouteMap: true })).toBe("written");
    await h.imp(BKD_TWO_LEGS, later(T0, 1));
    expect(h.routeMaps.events.map((e) => [e.name, e.eventStatus, e.audience])).toEqual([
      ["RMP", "Creation", { ownerAgent: null, xtdForwarders: ["FWD2", "FWD3"] }],
    ]);
    expect((await h.routeMaps.get(AWB))?.xtdForwarders).toEqual(["FWD2", "FWD3"]);
    // The grants now live on the record only.
    expect(await h.routeMaps.getForChange(AWB)).toMatchObject({ earlyXtd: null });
  });

  it("retries a creation that an XTD grant raced and creates the route map once, with the grant", async () => {
    const h = harness();
    let raced = false;
    // The grant is recorded after ingest read the AWB (nothing there) and before it creates it.
    const racing = withRouteMaps(h, {
      write: async (change) => {
        if (!raced) {
          raced = true;
          expect(await h.routeMaps.putTrigger(earlyXtd("FWD2"), { onlyWithoutRouteMap: true })).toBe(
            "written",
          );
        }
        return h.routeMaps.write(change);
      },
    });
    const applied = await racing.imp(BKD_TWO_LEGS, T0);
    expect(applied).toEqual([{ awb: AWB, changed: true, events: ["RMP"] }]);
    expect(h.backoffs).toEqual([1]);
    expect(h.routeMaps.operations).toMatchObject({ getForChange: 2, write: 2 });
    expect(await h.routeMaps.get(AWB)).toMatchObject({ version: 1, xtdForwarders: ["FWD2"] });
    expect(h.routeMaps.events.map((e) => [e.name, e.eventStatus, e.audience.xtdForwarders])).toEqual([
      ["RMP", "Creation", ["FWD2"]],
    ]);
  });

  it("changes nothing for a repeated message", async () => {
    const h = harness();
    await h.imp(BKD_TWO_LEGS, T0);
    const rcs = fsu("RCS/14MAR0500/HAJ/T10K250.0");
    await h.imp(rcs, later(T0, 5));
    const writes = h.routeMaps.operations.write;
    const again = await h.imp(rcs, later(T0, 30));
    expect(again).toEqual([{ awb: AWB, changed: false, events: [] }]);
    expect(h.routeMaps.operations.write).toBe(writes);
    expect(await h.routeMaps.snapshots(AWB, EPOCH)).toHaveLength(2);
  });

  it("ends in the same route map whatever the order of status messages", async () => {
    const dep = fsu("DEP/LH400/14MAR/FRAJFK/T10K250.0/A1341");
    const arr = fsu("ARR/LH400/14MAR1610/JFK/T10");
    const build = async (first: string, second: string) => {
      const h = harness();
      await h.imp(BKD_TWO_LEGS, T0);
      await h.imp(first, later(T0, 60 * 30));
      await h.imp(second, later(T0, 60 * 31));
      const record = await h.routeMaps.get(AWB);
      if (!record) throw new Error("no record");
      return renderRouteMap(record.state, later(T0, 60 * 40));
    };
    expect(await build(arr, dep)).toEqual(await build(dep, arr));
  });

  it("refuses another carrier's AWB with nothing stored, even when other messages are fine", async () => {
    const h = harness();
    const foreign = "FSU/13\n057-12345675HAJJFK/T10K250.0\nRCS/14MAR0500/HAJ/T10\n";
    await expect(h.imp(`${BKD_TWO_LEGS}\n${foreign}`, T0)).rejects.toBeInstanceOf(ForeignAwbError);
    expect(h.routeMaps.operations.write ?? 0).toBe(0);
    expect(await h.routeMaps.get(AWB)).toBeNull();
  });

  it("refuses an unknown station before writing anything, naming its line", async () => {
    const h = harness();
    // Lines 1-4 the booking, 5 blank, 6-7 the FSU header, 8 the RCS.
    const body = `${BKD_TWO_LEGS}\n${fsu("RCS/14MAR0500/QQQ/T10")}`;
    const error = await h.imp(body, T0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnplaceableMessageError);
    expect(error).toMatchObject({ line: 8, expected: "a known IATA airport code", found: "QQQ", path: null });
    expect(h.routeMaps.operations.write ?? 0).toBe(0);
    expect(await h.routeMaps.get(AWB)).toBeNull();
  });

  it("names the consignment line for an unknown AWB origin and the BKD line for an unknown leg station", async () => {
    const h = harness();
    const origin = await h.imp(BKD_TWO_LEGS.replace("HAJJFK/T10", "QQQJFK/T10"), T0).catch((e: unknown) => e);
    expect(origin).toMatchObject({ name: "UnplaceableMessageError", line: 2, found: "QQQ" });
    const leg = await h.imp(BKD_TWO_LEGS.replace("FRAJFK/T10", "FRAQQQ/T10"), T0).catch((e: unknown) => e);
    expect(leg).toMatchObject({ name: "UnplaceableMessageError", line: 4, found: "QQQ" });
  });

  it("refuses 29FEB when the year nearest receipt has none, naming the line and the year", async () => {
    const h = harness();
    // Received in March 2026: the nearest 29 February would be in 2026, a common year.
    const error = await h.imp(`${BKD_TWO_LEGS}${fsu("RCS/29FEB0500/HAJ/T10")}`, T0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnplaceableMessageError);
    expect(error).toMatchObject({
      line: 7,
      expected: "a date that exists in 2026, the year nearest the time of receipt",
      found: "29FEB0500",
    });
    expect(await h.routeMaps.get(AWB)).toBeNull();
    // Two years on, the nearest 29 February exists (2028): the same line is accepted.
    const leap = harness();
    await expect(leap.imp(fsu("RCS/29FEB0500/HAJ/T10"), "2028-03-01T10:00:00Z")).resolves.toHaveLength(1);
  });

  it("answers 422 naming the line like a parse error: field 'line N', message 'expected ..., found ...'", async () => {
    const h = harness();
    const error = await h
      .imp(`${BKD_TWO_LEGS}\n${fsu("RCS/14MAR0500/QQQ/T10")}`, T0)
      .catch((e: unknown) => e);
    const problem = toProblem(error) as ProblemError;
    expect(problem).toBeInstanceOf(ProblemError);
    expect(problem.status).toBe(422);
    expect(problem.slug).toBe("unplaceable-carrier-message");
    expect(problem.toBody().errors).toEqual([
      { field: "line 8", message: 'expected a known IATA airport code, found "QQQ"' },
    ]);
    expect(problem.detail).toBe(
      'Line 8: expected a known IATA airport code, found "QQQ". Nothing was stored.',
    );
  });

  it("names the element path of an XFSU station and the field path of a JSON one", async () => {
    const h = harness();
    const xml = fixture("xfsu", "xfsu-rcs.xml").replace("<ram:ID>FRA</ram:ID>", "<ram:ID>QQQ</ram:ID>");
    const xfsuError = await h.imp(xml, T0, "application/xml").catch((e: unknown) => e);
    const originLine = xml.slice(0, xml.indexOf("<ram:OriginLocation>")).split("\n").length;
    expect(xfsuError).toMatchObject({
      name: "UnplaceableMessageError",
      line: originLine,
      path: "MasterConsignment/OriginLocation/ID",
      found: "QQQ",
    });
    expect((toProblem(xfsuError) as ProblemError).toBody().errors[0]?.field).toBe(
      `line ${originLine}: MasterConsignment/OriginLocation/ID`,
    );

    const message = (station: string) => ({
      Type: "RCS",
      AirlinePrefix: "020",
      AwbNumber: "12345675",
      Origin: "HAJ",
      Destination: "JFK",
      Station: station,
      Time: "2026-03-14T05:00",
    });
    const json = JSON.stringify({ Messages: [message("HAJ"), message("QQQ")] }, null, 2);
    const jsonError = await h.imp(json, T0, "application/json").catch((e: unknown) => e);
    const stationLine = json.slice(0, json.indexOf('"QQQ"')).split("\n").length;
    expect(jsonError).toMatchObject({ line: stationLine, path: "Messages[1].Station", found: "QQQ" });
    expect(h.routeMaps.operations.write ?? 0).toBe(0);
  });

  it("names the line of a malformed message", async () => {
    const h = harness();
    const error = await h.imp("FSU/13\n020-12345675HAJJFK/T10\nXYZ/14MAR\n", T0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MessageParseError);
    expect(error).not.toBeInstanceOf(UnplaceableMessageError);
    expect((error as MessageParseError).line).toBe(3);
    expect((toProblem(error) as ProblemError).status).toBe(400);
  });

  it("re-applies the message after a write conflict and gives up after the retry budget", async () => {
    const h = harness();
    h.routeMaps.failNextWrites(3);
    await h.imp(BKD_TWO_LEGS, T0);
    expect(h.backoffs).toEqual([1, 2, 3]);
    expect((await h.routeMaps.get(AWB))?.version).toBe(1);

    h.routeMaps.failNextWrites(100);
    const error = await h.imp(fsu("RCS/14MAR0500/HAJ/T10"), later(T0, 5)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestInterruptedError);
    expect((error as IngestInterruptedError).cause).toBeInstanceOf(WriteConflictError);
    expect((error as IngestInterruptedError).applied).toEqual([]);
  });

  it("says what was applied when a later message of the body cannot be stored (422 with Applied)", async () => {
    const h = harness();
    const other = "FSU/13\n020-76543213HAJJFK/T4\nRCS/14MAR0500/HAJ/T4\n";
    const body = `${BKD_TWO_LEGS}${other}${fsu("RCS/14MAR0500/HAJ/T10")}`;
    h.routeMaps.throwOnWrite(2, new WriteTooLargeError("the change needs 140 storage items (limit 100)"));
    const error = await h.imp(body, T0).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(IngestInterruptedError);
    expect(error).toMatchObject({ failedMessage: 2, total: 3 });
    // The first message stays stored; the second and third were not.
    expect((await h.routeMaps.get(AWB))?.version).toBe(1);
    expect(await h.routeMaps.get({ prefix: "020", serial: "76543213" })).toBeNull();

    const problem = toProblem(error) as ProblemError;
    expect(problem.status).toBe(422);
    const problemBody = problem.toBody();
    expect(problemBody.Applied).toEqual([{ AwbNumber: "020-12345675", Changed: true, Events: ["RMP"] }]);
    expect(problemBody.errors).toEqual([
      { field: "message 2", message: "the change needs 140 storage items (limit 100)" },
    ]);
    expect(problemBody.detail).toContain("resend from message 2");

    // Resending only the rest completes the body.
    const rest = await h.imp(`${other}${fsu("RCS/14MAR0500/HAJ/T10")}`, later(T0, 1));
    expect(rest.map((a) => a.changed)).toEqual([true, true]);
  });

  it("lists unchanged messages as applied too, and answers 409 after lost races", async () => {
    const h = harness();
    await h.imp(BKD_TWO_LEGS, T0);
    h.routeMaps.failNextWrites(100);
    const error = await h
      .imp(`${BKD_TWO_LEGS}${fsu("RCS/14MAR0500/HAJ/T10")}`, later(T0, 1))
      .catch((e: unknown) => e);
    const problem = toProblem(error) as ProblemError;
    expect(problem.status).toBe(409);
    expect(problem.toBody().Applied).toEqual([{ AwbNumber: "020-12345675", Changed: false, Events: [] }]);
    expect(problem.toBody().errors[0]?.field).toBe("message 2");
  });

  it("refuses an itinerary of more legs than one write can store, before writing anything", async () => {
    const h = harness();
    const legs = Array.from({ length: 13 }, (_, i) => `BKD/LH${400 + i}/14MAR/FRAJFK/T10/S1325/S1555`);
    const error = await h
      .imp(`FSU/13\n020-12345675FRAJFK/T10\n${legs.join("\n")}\n`, T0)
      .catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: "MessageParseError",
      line: 15,
      expected: "at most 12 legs in one itinerary",
    });
    expect(h.routeMaps.operations.write ?? 0).toBe(0);
  });

  it("keeps the booked schedule when an FWB names the flight by day only (FLT month not given)", async () => {
    const h = harness();
    await h.imp("FSU/13\n020-12345675FRAJFK/T10K250.0\nBKD/LH400/14MAR/FRAJFK/T10K250.0/S1325/S1555\n", T0);
    await h.imp("FWB/16\n020-12345675FRAJFK/T10K250.0\nFLT/LH400/14\nAGT//1234567/0001\n", later(T0, 5));
    const map = JSON.parse(await getRouteMap(h, { awb: AWB, reader: OWNER, now: later(T0, 6) })) as RouteMap;
    expect(map.RoutingIsReplanned).toBe(false);
    const flight = map.MilestonePlan.RoutingCycle.Flight[0];
    expect(flight?.FlightInfo.Date).toBe("14MAR");
    expect(flight?.FlightInfo.Scheduled.DepartureDateTime?.Local).toBe("2026-03-14T13:25:00");
    expect(map.MilestonePlan.OriginCycle.Milestone.every((m) => m.PlannedDateTime !== null)).toBe(true);
  });

  it("uses the carrier's planning configuration (offsets and road-feeder flight numbers)", async () => {
    const h = harness();
    h.settings.set("020", {
      airlinePrefix: "020",
      name: "LH",
      qualityProgram: true,
      xtd: true,
      updatedAt: T0,
      planning: {
        offsets: { rcsBeforeFirstStd: 180 },
        roadFeederFlightNumbers: [{ carrierCode: "LH", pattern: "9\\d{3}" }],
      },
    });
    await h.imp(BKD_TWO_LEGS, T0);
    await h.imp(FWB, later(T0, 1));
    const map = JSON.parse(await getRouteMap(h, { awb: AWB, reader: OWNER, now: later(T0, 2) })) as RouteMap;
    const rcs = map.MilestonePlan.OriginCycle.Milestone.find((m) => m.Name === "RCS");
    expect(rcs?.PlannedDateTime?.Local).toBe("2026-03-14T03:00:00"); // 06:00 STD - 3 h
    expect(map.MilestonePlan.RoutingCycle.Flight.map((f) => f.FlightInfo.isRoadFeederService)).toEqual([
      true,
      false,
    ]);
    expect(map.IsRoadFeederService).toBe(true);
  });
});

describe("getRouteMap / getRouteMapHistory", () => {
  it("answers the owner, and 404s anyone else exactly like an unknown AWB", async () => {
    const h = harness();
    await h.imp(BKD_TWO_LEGS, T0);
    // Before the FWB nobody owns it.
    await expect(getRouteMap(h, { awb: AWB, reader: OWNER, now: T0 })).rejects.toBeInstanceOf(
      RouteMapNotFoundError,
    );
    await h.imp(FWB, later(T0, 1));
    await expect(getRouteMap(h, { awb: AWB, reader: OWNER, now: T0 })).resolves.toContain(
      '"AwbNumber":"12345675"',
    );
    await expect(getRouteMap(h, { awb: AWB, reader: OTHER, now: T0 })).rejects.toBeInstanceOf(
      RouteMapNotFoundError,
    );
    const unknown = { prefix: "020", serial: "11111111" };
    await expect(getRouteMap(h, { awb: unknown, reader: OWNER, now: T0 })).rejects.toBeInstanceOf(
      RouteMapNotFoundError,
    );
  });

  it("serves the stored JSON until a milestone falls due, then renders with the time of reading", async () => {
    const h = harness();
    await h.imp(BKD_TWO_LEGS, T0);
    await h.imp(FWB, later(T0, 1));
    const record = await h.routeMaps.get(AWB);
    const staleAfter = record?.staleAfter ?? "";
    expect(staleAfter).toBe("2026-03-13T23:00:00Z"); // FWB reported; LAT = STD 05:00 UTC - 6 h
    const gets = h.routeMaps.operations.get ?? 0;
    const fresh = await getRouteMap(h, { awb: AWB, reader: OWNER, now: staleAfter });
    expect(fresh).toBe(record?.routeMapJson);
    expect(h.routeMaps.operations.get ?? 0).toBe(gets);

    const stale = JSON.parse(
      await getRouteMap(h, { awb: AWB, reader: OWNER, now: later(staleAfter, 1) }),
    ) as RouteMap;
    expect(h.routeMaps.operations.get).toBe(gets + 1);
    expect(stale.MilestonePlan.OriginCycle.Milestone.find((m) => m.Name === "LAT")?.Status).toBe("Missing");
  });

  it("lists one snapshot per change, newest first, and never an expired one", async () => {
    const h = harness();
    await h.imp(BKD_TWO_LEGS, T0);
    await h.imp(FWB, later(T0, 1));
    await h.imp(fsu("RCS/14MAR0500/HAJ/T10"), later(T0, 2));
    await h.imp(fsu("RCS/14MAR0500/HAJ/T10"), later(T0, 3)); // repeat: no snapshot
    const history = JSON.parse(
      (await getRouteMapHistory(h, { awb: AWB, reader: OWNER, now: later(T0, 4), page: 1, pageSize: 100 }))
        .json,
    ) as {
      RouteMap: RouteMap;
      Snapshots: Array<{ SnapshotDate: { Utc: string; Local: string }; RouteMap: RouteMap }>;
    };
    expect(history.Snapshots.map((s) => s.SnapshotDate.Utc)).toEqual([
      "2026-03-13T10:02:00Z",
      "2026-03-13T10:01:00Z",
      "2026-03-13T10:00:00Z",
    ]);
    expect(history.Snapshots[0]?.SnapshotDate.Local).toBe("2026-03-13T11:02:00"); // HAJ, CET
    expect(history.Snapshots[2]?.RouteMap.Status).toBe("Booked");
    expect(history.RouteMap.Status).toBe("Accepted");

    const afterRetention = later(T0, 30 * 24 * 60 + 1);
    const old = JSON.parse(
      (await getRouteMapHistory(h, { awb: AWB, reader: OWNER, now: afterRetention, page: 1, pageSize: 100 }))
        .json,
    ) as {
      Snapshots: unknown[];
    };
    expect(old.Snapshots).toEqual([]);
  });

  it("applies a JSON body naming a road-feeder leg", async () => {
    const h = harness();
    const body = JSON.stringify({
      Type: "BKD",
      AirlinePrefix: "020",
      AwbNumber: "12345675",
      Origin: "HAJ",
      Destination: "JFK",
      Pieces: 10,
      Legs: [
        {
          CarrierCode: "LH",
          FlightNumber: "9300",
          Date: "2026-03-14",
          Origin: "HAJ",
          Destination: "FRA",
          ScheduledDeparture: "2026-03-14T06:00",
          ScheduledArrival: "2026-03-14T09:30",
          IsRoadFeederService: true,
        },
        {
          CarrierCode: "LH",
          FlightNumber: "400",
          Date: "2026-03-14",
          Origin: "FRA",
          Destination: "JFK",
          ScheduledDeparture: "2026-03-14T13:25",
          ScheduledArrival: "2026-03-14T15:55",
        },
      ],
    });
    const applied = await ingestCarrierMessage(h, {
      carrierPrefix: "020",
      contentType: "application/json",
      body,
      now: T0,
    });
    expect(applied[0]?.events).toEqual(["RMP"]);
  });
});
