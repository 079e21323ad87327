/**
 * Issue 11 acceptance, contention: 100 carrier messages for one AWB at once through the real local
 * runner. Every answer comes within the HTTP Lambda's deadline and none is >= 500; a message the
 * service could not store in time is a 409 with `Applied` and `Retry-After`; the stored changes are
 * exactly the messages answered "changed", and each event reaches the webhook exactly once.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HTTP_FUNCTION_TIMEOUT_SECONDS } from "../../functions/contracts/routes.ts";
import { type Receiver, startReceiver, waitFor } from "../adapters/pipeline/receiver.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, local, MINUTE, minuteNow, partitionItems } from "./route-map-helpers.ts";

let stack: RunningStack;
let receiver: Receiver;
const owner = tokens.forwarder("CONT-OWNER", "5000005", "0005", "HAJ");
const carrier = tokens.carrier("020");
const SERIAL = "50000016";
const MESSAGES = 100;

beforeAll(async () => {
  receiver = await startReceiver();
  // The rate limit is not under test here: 100 requests at once from one carrier.
  stack = await startRunner({
    DELIVERY_RETRY_SCALE: "0.0001",
    RATE_LIMIT_PER_SECOND: "1000",
    RATE_LIMIT_BURST: "1000",
  });
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: tokens.support(),
    json: { Name: "Lufthansa Cargo", QualityProgram: true, Xtd: true },
  });
  expect(put.status).toBe(200);
  const hook = await call(stack.url, "POST", "/ffw/service/routemap/webhook", {
    token: owner,
    json: { Event: "RCS", Url: `${receiver.url}/rcs`, Enable: true, Type: "json", AWB: "" },
  });
  expect(hook.status, hook.text).toBe(200);
  const std = local("HAJ", minuteNow() + 30 * HOUR);
  const sta = local("JFK", minuteNow() + 38 * HOUR);
  const setup = await call(stack.url, "POST", "/carrier/messages", {
    token: carrier,
    contentType: "text/plain",
    body:
      `FSU/13\n020-${SERIAL}HAJJFK/T5K100\nBKD/LH400/${std.ddmmm}/HAJJFK/T5K100/S${std.hhmm}/S${sta.hhmm}\n\n` +
      `FWB/16\n020-${SERIAL}HAJJFK/T5K100\nAGT//5000005/0005\n`,
  });
  expect(setup.status, setup.text).toBe(200);
}, scaled(90_000));

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

interface Answer {
  status: number;
  ms: number;
  retryAfter: string | null;
  body: { Applied?: Array<{ AwbNumber: string; Changed: boolean; Events: string[] }> };
}

describe("100 concurrent messages on one AWB", () => {
  it(
    "answers every one within the deadline, never >= 500; stored changes = answered changed; one delivery per event",
    async () => {
      const answers: Answer[] = await Promise.all(
        Array.from({ length: MESSAGES }, async (_, i) => {
          // Each message is a receipt at another minute: a change of its own, with its own RCS event.
          const at = local("HAJ", minuteNow() - (MESSAGES + 5 - i) * MINUTE);
          const started = Date.now();
          const response = await call(stack.url, "POST", "/carrier/messages", {
            token: carrier,
            contentType: "text/plain",
            body: `FSU/13\n020-${SERIAL}HAJJFK/T5K100\nRCS/${at.ddmmm}${at.hhmm}/HAJ/T5K100\n`,
          });
          return {
            status: response.status,
            ms: Date.now() - started,
            retryAfter: response.headers.get("retry-after"),
            body: response.body as Answer["body"],
          };
        }),
      );

      const statuses = answers.map((a) => a.status);
      console.info(
        "contention answers",
        JSON.stringify({
          ok: statuses.filter((s) => s === 200).length,
          conflict: statuses.filter((s) => s === 409).length,
          slowestMs: Math.max(...answers.map((a) => a.ms)),
        }),
      );
      const failures = answers.filter((a) => a.status >= 500).map((a) => JSON.stringify(a.body));
      if (failures.length > 0)
        console.error(
          stack
            .output()
            .split("\n")
            .filter((l) => /error|timed out/i.test(l))
            .slice(0, 5)
            .join("\n"),
        );
      expect(
        statuses.filter((s) => s >= 500),
        [...new Set(failures)].join("\n"),
      ).toEqual([]);
      expect(statuses.filter((s) => s !== 200 && s !== 409)).toEqual([]);
      // Answered before the Lambda deadline: the runner cuts a function off at its timeout
      // (HTTP_FUNCTION_TIMEOUT_SECONDS) with a 502, as API Gateway answers a timed-out Lambda, so "no 5xx"
      // above also means "no answer past the deadline". (What the client waits for includes the gateway
      // part, authorizer and queueing, so its own clock is no measure of the function's deadline.)
      expect(HTTP_FUNCTION_TIMEOUT_SECONDS).toBe(10);
      for (const refused of answers.filter((a) => a.status === 409)) {
        expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
        expect(refused.body.Applied).toEqual([]);
      }
      const changed = answers.filter((a) => a.status === 200 && a.body.Applied?.[0]?.Changed === true).length;
      expect(answers.filter((a) => a.status === 200).length).toBe(changed);
      expect(changed).toBeGreaterThan(0);

      // Stored: one snapshot and one RCS outbox event per message answered "changed" (plus the setup's).
      const snapshots = await partitionItems(stack.dynamoEndpoint, `020${SERIAL}`, "SNAP#");
      expect(snapshots.length - 2).toBe(changed);
      const outbox = await partitionItems(stack.dynamoEndpoint, `020${SERIAL}`, "EVT#");
      const rcsIds = outbox
        .map((item) => item.event as { name: string; eventId: string })
        .filter((event) => event.name === "RCS")
        .map((event) => event.eventId);
      expect(rcsIds).toHaveLength(changed);

      // Each event reaches the webhook exactly once.
      await waitFor(() => receiver.postsTo("/rcs").length >= changed, 60_000);
      await new Promise((resolve) => setTimeout(resolve, 3000));
      const delivered = receiver
        .postsTo("/rcs")
        .map((p) => (JSON.parse(p.body) as { IdMessage: string }).IdMessage);
      expect(delivered.sort()).toEqual([...rcsIds].sort());
    },
    scaled(180_000),
  );
});
