/** Cargo-IMP parsing throughput over the fixture set (every message type we accept). */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { parseCargoImp } from "../functions/core/carrier-messages/cargo-imp/index.ts";
import { figure, median } from "./support.ts";

const directory = join(import.meta.dirname, "..", "test", "fixtures", "cargo-imp");
const fixtures = readdirSync(directory)
  .filter((name) => name.endsWith(".txt"))
  .map((name) => ({ name, text: readFileSync(join(directory, name), "utf8") }));
/** The fixture set also holds messages the parser must refuse (e.g. a 7-digit serial): time the accepted ones. */
const parses = (text: string) => {
  try {
    parseCargoImp(text);
    return true;
  } catch {
    return false;
  }
};
const messages = fixtures.filter((fixture) => parses(fixture.text)).map((fixture) => fixture.text);
const refused = fixtures.filter((fixture) => !parses(fixture.text)).map((fixture) => fixture.name);
if (refused.length > 0) process.stdout.write(`not timed (refused by design): ${refused.join(", ")}\n`);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);

function round(): number {
  let parsed = 0;
  let reports = 0;
  const deadline = performance.now() + SECONDS * 1000;
  while (performance.now() < deadline) {
    for (const message of messages) reports += parseCargoImp(message).length;
    parsed += messages.length;
  }
  if (reports === 0) throw new Error("fixtures produced no reports");
  return parsed / SECONDS;
}

round(); // warm-up
const rates = [round(), round(), round(), round(), round()];
process.stdout.write(
  `${messages.length} fixture messages; rounds: ${rates.map((r) => r.toFixed(0)).join(", ")} msg/s (one core)\n`,
);
figure("Cargo-IMP parsing", `${median(rates).toFixed(0)} messages/s on one core (goal >= 50k)`);
