/**
 * Carrier message -> webhook received at a local receiver, through the whole local pipeline (HTTP
 * ingest, DynamoDB Local stream, matcher, fauxqs delivery queue, deliverer, HTTP POST): latency p50/p99
 * over 1,000 DEP messages sent at a steady rate, and how many arrived (must be all of them).
 */
import { startReceiver } from "../test/adapters/pipeline/receiver.ts";
import { call, startRunner, tokens } from "../test/support/runner.ts";
import { bookingAndFwb, figure, percentile, serialFor } from "./support.ts";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 1000);
// A busy carrier feed; at 20 msg/s the 2-core machine saturates (runner, JVM and load share 2 cores).
const RATE_PER_SECOND = Number(process.env.BENCH_RATE ?? 10);
const MONTHS = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"];

const receiver = await startReceiver();
const stack = await startRunner({
  RATE_LIMIT_PER_SECOND: "1000000",
  RATE_LIMIT_BURST: "1000000",
  RATE_LIMIT_PER_MINUTE: "1000000000",
  RATE_LIMIT_PER_HOUR: "1000000000",
  RATE_LIMIT_PER_DAY: "1000000000",
});
try {
  const forwarder = tokens.forwarder();
  const carrier = tokens.carrier("020");
  const webhook = await call(stack.url, "POST", "/ffw/service/routemap/webhook", {
    token: forwarder,
    json: { Event: "DEP", Url: `${receiver.url}/bench`, Enable: true, Type: "json", AWB: "020" },
  });
  if (webhook.status !== 200 || (webhook.body as { Enabled?: boolean }).Enabled !== true) {
    throw new Error(`webhook not enabled: ${webhook.status} ${webhook.text}`);
  }
  // 1,000 booked AWBs owned by the forwarder (booked 1 h ago, so the DEP is plausible now).
  const serials = Array.from({ length: MESSAGES }, (_, i) => serialFor(3_000_000 + i));
  const bookedAt = Date.now() - 3 * 3_600_000;
  for (let i = 0; i < serials.length; i += 20) {
    await Promise.all(
      serials.slice(i, i + 20).map(async (serial) => {
        const seeded = await call(stack.url, "POST", "/carrier/messages", {
          token: carrier,
          json: bookingAndFwb(serial, 0, bookedAt),
        });
        if (seeded.status !== 200) throw new Error(`seeding ${serial}: ${seeded.status} ${seeded.text}`);
      }),
    );
  }
  process.stdout.write(`${MESSAGES} AWBs booked; sending DEP messages at ${RATE_PER_SECOND}/s\n`);

  const sentAt = new Map<string, number>();
  const interval = 1000 / RATE_PER_SECOND;
  const started = Date.now();
  const sends: Array<Promise<void>> = [];
  for (const [i, serial] of serials.entries()) {
    const due = started + i * interval;
    const wait = due - Date.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const now = new Date();
    const day = `${String(now.getUTCDate()).padStart(2, "0")}${MONTHS[now.getUTCMonth()]}`;
    const hhmm = `${String(now.getUTCHours()).padStart(2, "0")}${String(now.getUTCMinutes()).padStart(2, "0")}`;
    // Times are FRA-local in Cargo-IMP; an approximate actual is fine for latency.
    const text = [
      "FSU/13",
      `020-${serial}FRAJFK/T10K250.0`,
      `DEP/LH9001/${day}/FRACGN/T10K250.0/A${hhmm}`,
    ].join("\n");
    sentAt.set(serial, Date.now());
    sends.push(
      call(stack.url, "POST", "/carrier/messages", {
        token: carrier,
        body: text,
        contentType: "text/plain",
      }).then((response) => {
        if (response.status !== 200) throw new Error(`DEP ${serial}: ${response.status} ${response.text}`);
      }),
    );
  }
  await Promise.all(sends);
  const deadline = Date.now() + 60_000;
  while (receiver.postsTo("/bench").length < MESSAGES && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  const latencies: number[] = [];
  const seen = new Set<string>();
  for (const post of receiver.postsTo("/bench")) {
    const payload = JSON.parse(post.body) as { AirWaybillNumber: string; Event: string };
    const sent = sentAt.get(payload.AirWaybillNumber);
    if (payload.Event !== "DEP" || sent === undefined || seen.has(payload.AirWaybillNumber)) continue;
    seen.add(payload.AirWaybillNumber);
    latencies.push(post.at - sent);
  }
  const duplicates = receiver.postsTo("/bench").length - seen.size;
  process.stdout.write(`received ${seen.size}/${MESSAGES} (duplicates: ${duplicates})\n`);
  figure(
    "Carrier message to webhook",
    `p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms (goals 300 ms / 1 s), received ${seen.size}/${MESSAGES} at ${RATE_PER_SECOND} msg/s`,
  );
} finally {
  await stack.stop();
  await receiver.stop();
}
