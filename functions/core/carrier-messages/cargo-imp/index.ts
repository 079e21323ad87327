/**
 * Cargo-IMP (`text/plain`): FSU/FSA (status), FWB (air waybill), FFR/FFA (booking request/answer),
 * FFM (flight manifest), FBL (booked list), FHL (consolidation list) into `CarrierReport[]`. Pure: no Date, no I/O. A
 * straightforward line scanner in three stages:
 *   lexer.ts     the body as lines (line ends, control characters, line length) and a cursor
 *   envelope.ts  Type-B and EDIFACT envelope lines around the messages; where each message starts
 *                and ends, and the message's reference
 *   <message>.ts one reader per message type, over the fields every message shares (fields.ts)
 * Every regex is compiled once, anchored and without nested quantifiers (target: >= 50k messages/s
 * on one core, `npm run bench`).
 *
 * Every report carries the lines it was read from (`sourceAt`: its status line, or the FWB/FFR/FFA
 * identifier line, and the consignment line; each leg its BKD, FLT or flight line), so the core can
 * still answer 400 naming a line for a station or date it cannot place.
 */
import type { CarrierReport, MessageOrigin } from "../types.ts";
import { parseBookingMessage } from "./booking.ts";
import { TypeBEnvelope } from "./envelope.ts";
import { parseFbl } from "./fbl.ts";
import { parseFfm } from "./ffm.ts";
import { parseFhl } from "./fhl.ts";
import { parseFsu } from "./fsu.ts";
import { parseFwb } from "./fwb.ts";
import { LineCursor } from "./lexer.ts";

/**
 * Reads one message from the line after its identifier to its end, adding its reports, each naming
 * `message` (its type and version from the identifier line, its reference from the envelope).
 */
type MessageReader = (cursor: LineCursor, reports: CarrierReport[], message: MessageOrigin) => void;

/** The message types read, by identifier: a new Cargo-IMP message is its module and one line here. */
const MESSAGE_READERS: Readonly<Record<string, MessageReader>> = {
  FSU: parseFsu,
  // FSA (status answer to an FSR) has exactly the layout of an FSU.
  FSA: parseFsu,
  FWB: parseFwb,
  FFR: parseBookingMessage,
  FFA: parseBookingMessage,
  FFM: parseFfm,
  FBL: parseFbl,
  FHL: parseFhl,
};

const envelope = new TypeBEnvelope(
  Object.keys(MESSAGE_READERS),
  "FSU/15, FSA/15, FWB/17, FFM/8, FHL/5, FFR/8 or FFA/4",
);

/** Parses one Cargo-IMP body (one or more messages, optional Type-B or EDIFACT envelopes) into reports. */
export function parseCargoImp(text: string): CarrierReport[] {
  const cursor = new LineCursor(text);
  const reports: CarrierReport[] = [];
  envelope.forEachMessage(cursor, (message) => {
    (MESSAGE_READERS[message.type] as MessageReader)(cursor, reports, message);
  });
  return reports;
}
