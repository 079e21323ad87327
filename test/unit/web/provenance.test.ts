/** The app's reading of provenance: which message set each actual, and the sentence the timeline shows. */
import { describe, expect, it } from "vitest";
import type { Provenance, RouteMapHistory } from "../../../functions/core/route-map/spec-types.ts";
import { actualSources, milestoneSourceKey, provenanceText } from "../../../web/src/lib/provenance.ts";
import { pair, routeMap } from "./fixtures.ts";

const source = (message: string, overrides: Partial<Provenance> = {}): Provenance => ({
  Channel: "Email",
  Message: message,
  MessageId: null,
  Carrier: "020",
  ReceivedAt: pair("2026-03-14T13:03:00Z", "2026-03-14T14:03:00"),
  TimeGiven: true,
  StatusRequestReply: false,
  ReceiptId: "20260314T130300Z-0123456789",
  SkippedLines: [],
  ...overrides,
});

describe("actualSources", () => {
  it("names for each actual the oldest snapshot that showed it, skipping snapshots without provenance", () => {
    const current = routeMap();
    const dlv = current.MilestonePlan.DestinationCycle.Milestone[0];
    if (dlv) dlv.ActualDateTime = pair("2026-03-16T13:00:00Z", "2026-03-16T09:00:00");
    const before = structuredClone(current);
    const dlvBefore = before.MilestonePlan.DestinationCycle.Milestone[0];
    if (dlvBefore) dlvBefore.ActualDateTime = null;
    const history: RouteMapHistory = {
      RouteMap: current,
      Snapshots: [
        {
          SnapshotDate: pair("2026-03-16T13:05:00Z", "2026-03-16T14:05:00"),
          RouteMap: current,
          Provenance: null,
        },
        {
          SnapshotDate: pair("2026-03-16T13:01:00Z", "2026-03-16T14:01:00"),
          RouteMap: current,
          Provenance: source("FSU/15"),
        },
        {
          SnapshotDate: pair("2026-03-14T13:03:00Z", "2026-03-14T14:03:00"),
          RouteMap: before,
          Provenance: source("FSU/12"),
        },
      ],
      StatusMessages: [],
    };
    const sources = actualSources(history, current);
    // RCS was shown by the oldest snapshot already; DLV first by the one of FSU/15 (the newest has none).
    expect(sources.get(milestoneSourceKey("origin", "RCS"))?.Message).toBe("FSU/12");
    expect(sources.get(milestoneSourceKey("destination", "DLV"))?.Message).toBe("FSU/15");
    // A milestone without an actual has no source.
    expect([...sources.keys()].every((key) => !key.endsWith("LAT"))).toBe(true);
  });
});

describe("provenanceText", () => {
  const actual = pair("2026-03-14T12:41:00Z", "2026-03-14T13:41:00");
  it("says the message, its channel and when it was received", () => {
    expect(provenanceText(source("FSU/15"), "CET", actual)).toBe("reported by FSU/15 by e-mail, 14:03 CET");
    expect(provenanceText(source("XFSU/3", { Channel: "Api" }), "CET", actual)).toBe(
      "reported by XFSU/3 by API, 14:03 CET",
    );
  });

  it("says when the message gave no time, and when it answered a status request", () => {
    expect(
      provenanceText(
        source("FSA/15", { TimeGiven: false, StatusRequestReply: true, Channel: "OneRecord" }),
        "CET",
        null,
      ),
    ).toBe(
      "reported by FSA/15 by ONE Record (answer to a status request), 14:03 CET, 14 Mar; no time given, the receipt time is shown",
    );
  });
});
