/**
 * Cargo-IMP FFM (airline flight manifest): the flight list grammar (flight-list.ts), each AWB booked on
 * the manifested leg and MAN kept in its history.
 */
import type { CarrierReport, MessageOrigin } from "../types.ts";
import { parseFlightList } from "./flight-list.ts";
import type { LineCursor } from "./lexer.ts";

export function parseFfm(cursor: LineCursor, reports: CarrierReport[], message: MessageOrigin): void {
  parseFlightList("manifest", cursor, reports, message);
}
