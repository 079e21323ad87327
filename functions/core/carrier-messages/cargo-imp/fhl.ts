/**
 * Cargo-IMP FHL (consolidation list, versions 2 to 5): the houses a forwarder consolidated under one
 * master air waybill.
 *   MBI/<master AWB><ORGDST>/<T pieces K weight>          the master, its check digit checked
 *   HBS/<house number>/<ORGDST>/<pieces>/<K|L weight>/[<SLAC>]/<description>  one per house
 *     with its `/` special handling line, then TXT (free text), HTS (tariff codes), OCI, SHP, CNE
 *     (NAM/, ADR/, LOC/ lines, or the older `/` lines; FHL/4 names the party on its own line), CVD,
 *     each with its `/` lines.
 * A house travels inside its master: the route map is the master's, and the houses say nothing
 * about its flights or statuses. So an FHL is read, checked (a line that is not the FHL's is refused,
 * naming it) and knowingly places nothing: it yields no report.
 */
import type { CarrierReport, MessageOrigin } from "../types.ts";
import { parseConsignmentLine, STATIONS_RE } from "./fields.ts";
import { fail, type LineCursor } from "./lexer.ts";

const EXPECT_MBI = "a master AWB line such as MBI/020-12345675FRAJFK/T10K250.0";
const EXPECT_HBS = "a house line such as HBS/HAWB123/FRAJFK/5/K100//PARTS";
const EXPECT_FHL_LINE = "an FHL line such as HBS/..., TXT/..., HTS/..., OCI/..., SHP, CNE or CVD/...";
const HOUSE_NUMBER_RE = /^[A-Z0-9]{1,12}$/;
const PIECES_RE = /^\d{1,5}$/;
const WEIGHT_RE = /^[KL]\d{1,7}(?:\.\d{1,3})?$/;
const FHL_LINES: ReadonlySet<string> = new Set([
  "TXT",
  "HTS",
  "OCI",
  "SHP",
  "CNE",
  "NFY",
  "CVD",
  "SSR",
  "OSI",
]);
const PARTY_LINES: ReadonlySet<string> = new Set(["NAM", "ADR", "LOC"]);

/** Reads an FHL after its identifier line; it places nothing. */
export function parseFhl(cursor: LineCursor, _reports: CarrierReport[], _message: MessageOrigin): void {
  const mbi = cursor.expectLine(EXPECT_MBI);
  if (!mbi.startsWith("MBI/")) fail(cursor.lineNo - 1, EXPECT_MBI, mbi);
  parseConsignmentLine(cursor.lineNo - 1, mbi.slice(4), { quantityRequired: true, natureOfGoods: "none" });
  let houses = 0;
  for (let text = cursor.peekInMessage(); text !== undefined; text = cursor.peekInMessage()) {
    const line = cursor.lineNo;
    cursor.index++;
    const fields = text.split("/");
    const id = fields[0] as string;
    if (id === "" || PARTY_LINES.has(id)) continue; // a `/` line, or a party's name, address, place
    if (id === "HBS") {
      checkHouse(line, fields, text);
      houses++;
    } else if (!FHL_LINES.has(id)) fail(line, EXPECT_FHL_LINE, text);
  }
  if (houses === 0) fail(cursor.endLineNo, EXPECT_HBS, cursor.endText);
}

/** HBS/<house>/<ORGDST>/<pieces>/<weight>/[<SLAC>]/<description>: the fields that give it meaning. */
function checkHouse(line: number, fields: string[], text: string): void {
  const [, house, route, pieces, weight] = fields;
  if (house === undefined || !HOUSE_NUMBER_RE.test(house)) fail(line, EXPECT_HBS, text);
  if (route === undefined || !STATIONS_RE.test(route))
    fail(line, "house origin and destination such as FRAJFK", text);
  if (pieces === undefined || !PIECES_RE.test(pieces)) fail(line, "the house's number of pieces", text);
  if (weight !== undefined && weight !== "" && !WEIGHT_RE.test(weight))
    fail(line, "a weight such as K100.5", text);
}
