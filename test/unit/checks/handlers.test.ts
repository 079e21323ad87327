/**
 * The two handlers with real SQSEvent / DynamoDBStreamEvent shapes over in-memory ports: the RMP
 * stream filter, partial batch failures for early checks, dropped malformed bodies, and a check
 * delivered twice in one batch recording once.
 */
import { marshall } from "@aws-sdk/util-dynamodb";
import type { Context, DynamoDBRecord, DynamoDBStreamEvent, SQSEvent, SQSRecord } from "aws-lambda";
import { beforeEach, describe, expect, it } from "vitest";
import { matchesFilter, RMP_INSERT_FILTER } from "../../../functions/contracts/event-functions.ts";
import {
  OUTBOX_ATTRIBUTES,
  OUTBOX_KIND,
  OUTBOX_SORT_KEY_PREFIX,
} from "../../../functions/contracts/outbox.ts";
import type { EventName } from "../../../functions/core/events.ts";
import { missingCheckAt, proActiveCheckAt } from "../../../functions/core/route-map/due-checks.ts";
import { addMinutes } from "../../../functions/core/time/station-time.ts";
import { make as makeRunDueCheck } from "../../../functions/handlers/queue/run-due-check.ts";
import { make as makePlanDueChecks, rmpAwbOf } from "../../../functions/handlers/stream/plan-due-checks.ts";
import { makeEvent } from "../notifications/helpers.ts";
import { AWB, BKD_TWO_LEGS, FWB, type Harness, harness, T0 } from "../use-cases/support.ts";
import { RecordingScheduler, RecordingSweepQueue, RuleStore, rule } from "./support.ts";

const context = { functionName: "test", getRemainingTimeInMillis: () => 30_000 } as unknown as Context;

/** An outbox insert of AWB 020-12345675 as the stream delivers it. */
function streamRecord(name: EventName, sequence: string): DynamoDBRecord {
  const event = makeEvent({ name, eventId: `02012345675-${sequence}-0`, awb: AWB });
  const keys = { pk: "AWB#02012345675", sk: `${OUTBOX_SORT_KEY_PREFIX}${event.eventId}` };
  return {
    eventName: "INSERT",
    dynamodb: {
      SequenceNumber: sequence,
      // util-dynamodb's AttributeValue and aws-lambda's describe the same JSON under different types.
      Keys: marshall(keys) as never,
      NewImage: marshall({
        ...keys,
        [OUTBOX_ATTRIBUTES.kind]: OUTBOX_KIND,
        [OUTBOX_ATTRIBUTES.event]: event,
      }) as never,
    },
  };
}

function sqsRecord(body: string, id: string): SQSRecord {
  return {
    messageId: id,
    receiptHandle: id,
    body,
    attributes: {} as SQSRecord["attributes"],
    messageAttributes: {},
    md5OfBody: "",
    eventSource: "aws:sqs",
    eventSourceARN: "arn:aws:sqs:us-east-1:000000000000:DueChecks",
    awsRegion: "us-east-1",
  };
}

let h: Harness;
let scheduler: RecordingScheduler;
let plannedDep: string;

beforeEach(async () => {
  h = harness();
  scheduler = new RecordingScheduler();
  await h.imp(BKD_TWO_LEGS, T0);
  await h.imp(FWB, T0);
  plannedDep = (await h.routeMaps.get(AWB))?.state.planned["FRA:DEP"]?.plannedUtc ?? "";
});

describe("plan-due-checks (stream)", () => {
  it("the filter passes RMP outbox inserts only", () => {
    expect(matchesFilter(streamRecord("RMP", "1"), RMP_INSERT_FILTER)).toBe(true);
    expect(matchesFilter(streamRecord("DEP", "2"), RMP_INSERT_FILTER)).toBe(false);
    expect(matchesFilter({ ...streamRecord("RMP", "3"), eventName: "MODIFY" }, RMP_INSERT_FILTER)).toBe(
      false,
    );
    expect(rmpAwbOf(streamRecord("RMP", "4"))).toEqual(AWB);
    expect(rmpAwbOf(streamRecord("CAN", "5"))).toBeNull();
  });

  it("plans the route map's checks from its current state", async () => {
    const handler = makePlanDueChecks(() => ({ routeMaps: h.routeMaps, checks: scheduler }), {
      now: () => T0,
    });
    const event: DynamoDBStreamEvent = { Records: [streamRecord("RMP", "1"), streamRecord("RMP", "2")] };
    const response = await handler(event, context);
    expect(response.batchItemFailures).toEqual([]);
    expect(scheduler.get("FRA:DEP", "missing")?.at).toBe(missingCheckAt(plannedDep));
  });
});

describe("run-due-check (queue)", () => {
  let rules: RuleStore;
  let sweeps: RecordingSweepQueue;
  beforeEach(() => {
    rules = new RuleStore();
    sweeps = new RecordingSweepQueue();
  });
  const makeHandler = (now: string) =>
    makeRunDueCheck(
      () => ({ routeMaps: h.routeMaps, subscriptions: rules, checks: scheduler, sweeps, backoff: h.backoff }),
      { now: () => now },
    );
  const body = (plannedUtc: string) =>
    JSON.stringify({ awb: "02012345675", milestoneKey: "FRA:DEP", plannedUtc, check: "missing" });

  it("records once when the same check arrives twice in a batch; drops unreadable bodies", async () => {
    const handler = makeHandler(missingCheckAt(plannedDep));
    const event: SQSEvent = {
      Records: [
        sqsRecord(body(plannedDep), "m1"),
        sqsRecord(body(plannedDep), "m2"),
        sqsRecord("{nope", "m3"),
      ],
    };
    const response = await handler(event, context);
    expect(response.batchItemFailures).toEqual([]);
    expect(h.routeMaps.events.filter((e) => e.type === "Missed")).toHaveLength(1);
  });

  it("fails an early check so SQS hands it back later", async () => {
    const handler = makeHandler(plannedDep);
    // (A batch where every record fails makes Powertools throw: Lambda then retries the whole batch.)
    const event: SQSEvent = { Records: [sqsRecord(body(plannedDep), "early"), sqsRecord("[]", "junk")] };
    const response = await handler(event, context);
    expect(response.batchItemFailures).toEqual([{ itemIdentifier: "early" }]);
    expect(h.routeMaps.events.filter((e) => e.type === "Missed")).toHaveLength(0);
  });

  it("runs a ProActive sweep message as one page and queues the next; junk sweeps are dropped", async () => {
    const handler = makeHandler(missingCheckAt(plannedDep));
    await handler({ Records: [sqsRecord(body(plannedDep), "missing")] }, context);
    const r = rules.add(rule({ kind: "ProActive", minutes: 240 }));
    const sweep = {
      kind: "proactive-sweep",
      ruleId: r.id,
      forwarderId: r.owner.forwarderId,
      ruleUpdatedAt: r.updatedAt,
      cursor: null,
    };
    const later = makeHandler(addMinutes(plannedDep, 30));
    const response = await later(
      {
        Records: [
          sqsRecord(JSON.stringify(sweep), "sweep"),
          sqsRecord(JSON.stringify({ ...sweep, cursor: { reader: -1 } }), "bad-sweep"),
        ],
      },
      context,
    );
    expect(response.batchItemFailures).toEqual([]);
    expect(scheduler.get("FRA:DEP", "proactive", 240)?.at).toBe(proActiveCheckAt(plannedDep, 240));
    // The owner's agent key is done; the next page is its forwarder key (XTD grants).
    expect(sweeps.requests).toEqual([
      { ...sweep, cursor: { reader: 1, createdAtOrBefore: null, sweptAtBound: [] } },
    ]);
  });
});
