/**
 * Cargo-IMP FBL (freight booked list: what the carrier booked on its flight, for the party handling
 * it): the flight list grammar (flight-list.ts), each AWB booked on the listed leg.
 */
import type { CarrierReport, MessageOrigin } from "../types.ts";
import { parseFlightList } from "./flight-list.ts";
import type { LineCursor } from "./lexer.ts";

export function parseFbl(cursor: LineCursor, reports: CarrierReport[], message: MessageOrigin): void {
  parseFlightList("booked-list", cursor, reports, message);
}
