/**
 * A subscribed LogisticsObject that is (or leads to) a Waybill: the air waybill data a subscriber
 * learns from it, read like an FWB without agent or flights (the AWB, its departure and arrival
 * airports). Links are resolved before (linked.ts).
 */
import type { AwbDataReport } from "../types.ts";
import { DEFAULT_CONTEXT, expandIri, isObject, type Json, Reader, withContext } from "./json-ld.ts";
import { waybillOfObject } from "./objects.ts";

/** The awb-data report of a Waybill / Shipment / Piece document; 422 when it names no AWB. */
export function parseOneRecordWaybill(doc: Json, sourceText?: string): AwbDataReport {
  const reader = new Reader(sourceText);
  if (!isObject(doc)) return reader.fail([], "a JSON-LD LogisticsObject", doc);
  const root = { value: doc, ctx: withContext(DEFAULT_CONTEXT, doc), path: [] };
  const read = waybillOfObject(root, { value: doc, path: [], ctx: root.ctx }, reader);
  const id = doc["@id"];
  return {
    kind: "awb-data",
    awb: read.awb,
    origin: read.origin,
    destination: read.destination,
    total: null,
    source: "ONE-RECORD/Waybill",
    message: {
      type: "Waybill",
      version: null,
      id: typeof id === "string" && id !== "" ? expandIri(id, root.ctx, false) : null,
    },
    sourceAt: { report: reader.at([]), origin: read.originAt, destination: read.destinationAt },
    agent: null,
    productCode: null,
    legs: [],
  };
}
