/**
 * IATA ONE Record LogisticsEvents (data model 3.x, API 2.x; JSON-LD, `application/ld+json`) into
 * `CarrierReport[]`, the same status reports as Cargo-IMP FSU and XFSU.
 *
 * Body: one LogisticsEvent (or StatusUpdateEvent, its 3.3 subclass for FSU-level status), a JSON-LD
 * `@graph` or a JSON array of them, or an `api:Collection` with `api:hasItem` (what a publisher answers
 * for `GET .../logistics-events`); at most MAX_MESSAGES_PER_BODY events. Names are read through the
 * document's `@context` (json-ld.ts); codes, dates and values as the data models write them (terms.ts).
 * Read per event:
 *   eventCode        a StatusCode code (terms.ts).
 *   eventTimeType    ACTUAL (also when absent) changes the route map; PLANNED, ESTIMATED, EXPECTED and
 *                    REQUESTED are validated and then skipped (no report): a route map's planned
 *                    times come from the booking, never from a status, and an estimate is no actual.
 *   eventDate        xsd:dateTime at the event's station (terms.ts).
 *   eventLocation (also recordedAtLocation, as older documents name it), eventFor,
 *                    recordedPieceCount/Weight/Volume, transportMovementReference: the
 *                    objects it points to (objects.ts); the movement names the flight of a
 *                    DEP/ARR/RCF, dated by its scheduled departure, else the event's date.
 * Tracked codes (RCS DEP ARR RCF NFD AWD DLV) become status reports; the other StatusCode codes
 * (BKD, FOH, MAN, DIS, ...) are kept as history (`other-status`), like Cargo-IMP's. Problems are
 * MessageParseError (400) naming the line and the JSON path as written (`@graph[1].cargo:eventDate`);
 * so is a document nested deeper than MAX_JSON_LD_DEPTH, at any depth.
 * Each report names its message: "LogisticsEvent" (or "StatusUpdateEvent"), the data-model version
 * its terms show (3.0 for core code-list IRIs, 3.1-3.3 for the code lists that replaced them, 3.3 for
 * a StatusUpdateEvent; null when they do not tell), and the event's @id.
 */
import { MAX_MESSAGES_PER_BODY } from "../common.ts";
import type { PathKey } from "../json/lines.ts";
import type { AwbId, CarrierReport, MessageOrigin, ReportedStatusCode, StatusReport } from "../types.ts";
import {
  API_NS,
  assertShallow,
  CARGO_NS,
  type Context,
  DEFAULT_CONTEXT,
  expandIri,
  isObject,
  type Json,
  type Located,
  type Node,
  property,
  Reader,
  typesOf,
  withContext,
} from "./json-ld.ts";
import { locationCode, readMovement, readQuantity, readWaybill } from "./objects.ts";
import {
  CODE_LISTS_NS,
  CODE_RE,
  CORE_CODE_LISTS_NS,
  codeIriOf,
  codeOf,
  EVENT_TIME_TYPES,
  HISTORY_ONLY,
  readDateTime,
  statusCodeOf,
  TRACKED,
} from "./terms.ts";

/** The events of the body with their paths: one event, `@graph`, an array, or an api:Collection. */
function eventNodes(body: unknown, reader: Reader): Node[] {
  if (Array.isArray(body)) return collect(body, DEFAULT_CONTEXT, [], reader);
  if (!isObject(body)) return reader.fail([], "a JSON-LD LogisticsEvent object", body);
  const ctx = withContext(DEFAULT_CONTEXT, body);
  const root: Node = { value: body, ctx, path: [] };
  const graph = body["@graph"];
  if (graph !== undefined) {
    if (!Array.isArray(graph)) return reader.fail(["@graph"], "an array of LogisticsEvents", graph);
    return collect(graph, ctx, ["@graph"], reader);
  }
  if (typesOf(root).includes(`${API_NS}Collection`)) {
    for (const [key, value] of Object.entries(body)) {
      if (expandIri(key, ctx, true) !== `${API_NS}hasItem`) continue;
      if (Array.isArray(value)) return collect(value, ctx, [key], reader);
      return collect([value], ctx, [], reader, key);
    }
    return [];
  }
  return [root];
}

function collect(items: Json[], ctx: Context, path: PathKey[], reader: Reader, single?: string): Node[] {
  if (items.length > MAX_MESSAGES_PER_BODY) {
    reader.fail(
      [...path, MAX_MESSAGES_PER_BODY],
      `at most ${MAX_MESSAGES_PER_BODY} events in one request body (send the rest in another request)`,
      `${items.length} events`,
    );
  }
  return items.map((item, i) => {
    const itemPath = single === undefined ? [...path, i] : [single];
    if (!isObject(item)) return reader.fail(itemPath, "a LogisticsEvent object", item);
    return { value: item, ctx: withContext(ctx, item), path: itemPath };
  });
}

/**
 * Parses a JSON-LD body (already JSON.parse'd; `sourceText` names lines) into reports. Events that are
 * not ACTUAL give no report.
 */
export function parseOneRecordEvents(
  body: unknown,
  sourceText?: string,
  options: OneRecordParseOptions = {},
): CarrierReport[] {
  const reader = new Reader(sourceText);
  assertShallow(body, reader);
  const reports: CarrierReport[] = [];
  for (const node of eventNodes(body, reader)) {
    if (options.skipOtherCodes && !hasStatusCode(node)) continue;
    const report = readEvent(node, reader, options.waybill);
    if (report !== null) reports.push(report);
  }
  return reports;
}

export interface OneRecordParseOptions {
  /**
   * Skip events whose eventCode is not a StatusCode code (a publisher's own milestones) instead of
   * refusing them: what a subscriber does with a LogisticsObject's whole event list.
   */
  skipOtherCodes?: boolean;
  /**
   * The Waybill the events are for, when the address they were posted to names it (a ONE Record
   * server's `{lo}/logistics-events`): `eventFor` is then not read, as the object is the URL's.
   */
  waybill?: { awb: AwbId; origin: string; destination: string };
}

function hasStatusCode(event: Node): boolean {
  const code = statusCodeOf(event);
  return code !== null && (TRACKED.has(code) || HISTORY_ONLY.has(code));
}

/** The message an event is: its class, the data-model version its terms show, its @id. */
function messageOf(event: Node, types: readonly string[], codeAt: Located): MessageOrigin {
  const statusUpdate = types.includes(`${CARGO_NS}StatusUpdateEvent`);
  const codeIri = codeIriOf(codeAt);
  const version = statusUpdate
    ? "3.3"
    : codeIri?.startsWith(CORE_CODE_LISTS_NS)
      ? "3.0"
      : codeIri?.startsWith(CODE_LISTS_NS)
        ? "3.1-3.3"
        : null;
  const id = event.value["@id"];
  return {
    type: statusUpdate ? "StatusUpdateEvent" : "LogisticsEvent",
    version,
    id: typeof id === "string" && id !== "" ? expandIri(id, event.ctx, false) : null,
  };
}

function readEvent(
  event: Node,
  reader: Reader,
  posted?: OneRecordParseOptions["waybill"],
): CarrierReport | null {
  const types = typesOf(event);
  const isEvent = types.some(
    (t) => t === `${CARGO_NS}LogisticsEvent` || t === `${CARGO_NS}StatusUpdateEvent`,
  );
  if (types.length > 0 && !isEvent)
    reader.fail([...event.path, "@type"], "a cargo:LogisticsEvent or cargo:StatusUpdateEvent", types[0]);

  const codeAt = property(event, "eventCode");
  if (codeAt === undefined) return reader.fail(event.path, "an eventCode such as StatusCode#DEP", undefined);
  const rawCode = codeOf(codeAt);
  const code = rawCode?.startsWith("DIS_") ? "DIS" : rawCode;
  if (
    code === null ||
    code === undefined ||
    !CODE_RE.test(code) ||
    !(TRACKED.has(code) || HISTORY_ONLY.has(code))
  )
    return reader.fail(
      codeAt.path,
      "a status code of the StatusCode code list such as DEP",
      rawCode ?? codeAt.value,
    );

  const timeTypeAt = property(event, "eventTimeType");
  const timeType = timeTypeAt === undefined ? "ACTUAL" : codeOf(timeTypeAt);
  if (!(EVENT_TIME_TYPES as readonly (string | null)[]).includes(timeType))
    reader.fail(
      timeTypeAt?.path ?? event.path,
      `an eventTimeType ${EVENT_TIME_TYPES.join(", ")}`,
      timeTypeAt?.value,
    );

  const { awb, origin, destination, originAt, destinationAt } =
    posted === undefined
      ? readWaybill(event, reader)
      : { ...posted, originAt: reader.at(event.path), destinationAt: reader.at(event.path) };

  const locationAt = property(event, "eventLocation") ?? property(event, "recordedAtLocation");
  // RCS is the consignment received from the shipper at the AWB's origin (as an FSU's RCS line without
  // an airport pair reads): an RCS that names no location is there. Any other code needs its location.
  if (locationAt === undefined && code !== "RCS")
    return reader.fail(event.path, "an eventLocation with an IATA airport code", undefined);
  const station = locationAt === undefined ? origin : locationCode(locationAt, reader, "eventLocation");

  const dateAt = property(event, "eventDate");
  if (dateAt === undefined) return reader.fail(event.path, "an eventDate (xsd:dateTime)", undefined);
  const time = readDateTime(dateAt, station, reader);

  const quantity = readQuantity(event, reader);
  if (timeType !== "ACTUAL") return null;

  const base = {
    awb,
    origin,
    destination,
    total: null,
    message: messageOf(event, types, codeAt),
    sourceAt: {
      report: reader.at(event.path),
      origin: originAt,
      destination: destinationAt,
      station: locationAt === undefined ? originAt : reader.at(locationAt.path),
      time: reader.at(dateAt.path),
    },
  };
  const movement = readMovement(event, reader);
  if (!TRACKED.has(code)) {
    return {
      ...base,
      kind: "other-status",
      code,
      station,
      time,
      flight:
        movement === null ? null : { carrierCode: movement.carrierCode, flightNumber: movement.flightNumber },
      pieces: quantity?.pieces ?? null,
      source: `ONE-RECORD/${code}`,
    };
  }
  const status = code as ReportedStatusCode;
  let flight: StatusReport["flight"] = null;
  if (movement !== null && (status === "DEP" || status === "ARR" || status === "RCF")) {
    const date = movement.scheduledDeparture ?? time;
    flight = {
      carrierCode: movement.carrierCode,
      flightNumber: movement.flightNumber,
      flightDay: date.day,
      flightMonth: date.month,
    };
  }
  return {
    ...base,
    kind: "status",
    status,
    station,
    time,
    flight,
    quantity,
    deliveredTo: null,
    source: `ONE-RECORD/${status}`,
  };
}
