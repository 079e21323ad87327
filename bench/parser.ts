/**
 * Carrier-message parsing throughput on one core: the Cargo-IMP fixture set (every message type we
 * accept, written from the format descriptions), and the real-message corpus (test/fixtures/real:
 * what carriers and their tools publish, FWBs of 60 lines and manifests of a dozen AWBs among them),
 * its Cargo-IMP messages alone and all its formats together. Messages the parsers must refuse are
 * not timed. Rates are messages per second of this process's CPU time (the time one core spent on
 * them): on a machine other processes share, wall-clock time would measure them too.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCargoImp } from "../functions/core/carrier-messages/cargo-imp/index.ts";
import { parseCarrierMessage } from "../functions/core/carrier-messages/index.ts";
import { figure, median } from "./support.ts";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const fixturesDir = join(import.meta.dirname, "..", "test", "fixtures", "cargo-imp");
const realDir = join(import.meta.dirname, "..", "test", "fixtures", "real");

interface Message {
  name: string;
  contentType: string;
  text: string;
}

const parses = (message: Message) => {
  try {
    parseCarrierMessage(message.contentType, message.text);
    return true;
  } catch {
    return false;
  }
};

const fixtures: Message[] = readdirSync(fixturesDir)
  .filter((name) => name.endsWith(".txt"))
  .map((name) => ({ name, contentType: "text/plain", text: readFileSync(join(fixturesDir, name), "utf8") }));
const CONTENT_TYPES: Record<string, string> = {
  txt: "text/plain",
  xml: "application/xml",
  json: "application/ld+json",
};
const real: Message[] = readdirSync(realDir)
  .filter((name) => /\.(txt|xml|json)$/.test(name) && name !== "manifest.json")
  .map((name) => ({
    name,
    contentType: CONTENT_TYPES[name.slice(name.lastIndexOf(".") + 1)] as string,
    text: readFileSync(join(realDir, name), "utf8"),
  }));

function report(label: string, messages: Message[]): { accepted: Message[] } {
  const accepted = messages.filter(parses);
  const refused = messages.filter((m) => !parses(m)).map((m) => m.name);
  process.stdout.write(
    `${label}: ${accepted.length} accepted; not timed (refused by design): ${refused.length}\n`,
  );
  return { accepted };
}

/** Messages parsed per CPU second over SECONDS of wall time, `parse` on each accepted message in turn. */
function rate(messages: Message[], parse: (m: Message) => number): number {
  let parsed = 0;
  let reports = 0;
  const deadline = performance.now() + SECONDS * 1000;
  const cpu = process.cpuUsage();
  while (performance.now() < deadline) {
    for (const message of messages) reports += parse(message);
    parsed += messages.length;
  }
  const used = process.cpuUsage(cpu);
  if (reports === 0) throw new Error("the messages produced no reports");
  return parsed / ((used.user + used.system) / 1e6);
}

/** `goal`: the figure's goal in words, for the figures that have one (Cargo-IMP: at least 50k). */
function measure(
  name: string,
  messages: Message[],
  parse: (m: Message) => number,
  goal = "goal >= 50k",
): void {
  rate(messages, parse); // warm-up
  const rates = [1, 2, 3, 4, 5].map(() => rate(messages, parse));
  process.stdout.write(
    `${name}: ${messages.length} messages; rounds: ${rates.map((r) => r.toFixed(0)).join(", ")} msg/s (one core)\n`,
  );
  figure(name, `${median(rates).toFixed(0)} messages/s on one core (${goal})`);
}

const cargoImpFixtures = report("Cargo-IMP fixtures", fixtures).accepted;
const realAll = report("Real corpus", real).accepted;
const realCargoImp = realAll.filter((m) => m.contentType === "text/plain");

measure("Cargo-IMP parsing", cargoImpFixtures, (m) => parseCargoImp(m.text).length);
measure("Real Cargo-IMP parsing", realCargoImp, (m) => parseCargoImp(m.text).length);
// Cargo-XML documents of 10-15 KB cost about a millisecond each (well-formedness check and parse).
measure(
  "Real Cargo-XML parsing",
  realAll.filter((m) => m.contentType === "application/xml"),
  (m) => parseCarrierMessage(m.contentType, m.text).length,
  "documents of 10-15 KB; no goal",
);
measure(
  "Real corpus parsing (all formats)",
  realAll,
  (m) => parseCarrierMessage(m.contentType, m.text).length,
  "Cargo-IMP and Cargo-XML as the corpus mixes them; no goal",
);
