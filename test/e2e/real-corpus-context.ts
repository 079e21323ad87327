/**
 * The context the good practice's own repository gives its ONE Record documents
 * (test/fixtures/real-context/gpst, byte for byte): the Shipment, its Waybill and the Location
 * objects, served by a stand-in of the publisher under the IRIs they were published with, so the
 * service follows the same links a subscriber's server would. The events and the Waybill are the
 * corpus files themselves; only the api:Collection around a logistics-events answer is ours (the
 * good practice shows the events one by one).
 */
import { readFileSync } from "node:fs";
import {
  type HistoryView,
  type ManifestEntry,
  MILESTONE_CODES,
  milestones,
} from "./real-corpus-expectations.ts";

export const PUBLISHER_ORIGIN = "https://1r.example.com";
const OBJECTS = `${PUBLISHER_ORIGIN}/logistics-objects`;
export const SHIPMENT = `${OBJECTS}/8a76ed85-959e-45d5-8c42-5fd39c08efb1`;
export const WAYBILL = `${OBJECTS}/1a8ded38-1804-467c-a369-81a411416b7c`;
/** After the last event (ARR 14:38Z), when its notification would arrive. */
export const RECEIVED_AT = "2023-04-01T14:45:00Z";

const real = (name: string) => readFileSync(new URL(`../fixtures/real/${name}`, import.meta.url), "utf8");
const context = (name: string) =>
  readFileSync(new URL(`../fixtures/real-context/gpst/${name}`, import.meta.url), "utf8");

/** The corpus files the good practice's context makes understood. */
export const inGoodPracticeContext = (entry: ManifestEntry): boolean =>
  entry.expectedInContext === "understood" && entry.source.startsWith("github.com/digital-cargo/");

const collection = (items: string[]) =>
  `{"@context":{"api":"https://onerecord.iata.org/ns/api#"},"@type":"api:Collection",` +
  `"api:hasTotalItems":${items.length},"api:hasItem":[${items.join(",")}]}`;

/** Path -> document the publisher stand-in serves. */
export function publisherDocuments(entries: readonly ManifestEntry[]): Map<string, string> {
  const files = entries.filter(inGoodPracticeContext).map((e) => e.file);
  const events = files.filter((f) => f.startsWith("1r-logisticsevent-")).sort();
  const waybill = files.find((f) => f.startsWith("1r-waybill-"));
  const path = (iri: string) => new URL(iri).pathname;
  const documents = new Map<string, string>([
    [path(SHIPMENT), context("shipment.json")],
    [`${path(SHIPMENT)}/logistics-events`, collection(events.map(real))],
    [`${path(WAYBILL)}/logistics-events`, collection([])],
    [path(`${OBJECTS}/FRA`), context("location-FRA.json")],
    [path(`${OBJECTS}/JFK`), context("location-JFK.json")],
  ]);
  if (waybill !== undefined) documents.set(path(WAYBILL), real(waybill));
  return documents;
}

interface ManifestEvent {
  eventCode: string;
  eventDate: string;
  location?: { code?: string } | null;
}

/** What the file means in context, checked in the AWB's history; the failures in words. */
export function contextFailures(entry: ManifestEntry, history: HistoryView | null): string[] {
  const expected = (entry as ManifestEntry & { context?: { origin: string; destination: string } }).context;
  if (history === null) return ["no route map"];
  const failed: string[] = [];
  const routing = history.RouteMap.Shipment.Routing;
  if (expected && (routing.Origin !== expected.origin || routing.Destination !== expected.destination))
    failed.push(`routing ${routing.Origin}-${routing.Destination}`);
  const events = (entry as ManifestEntry & { events?: ManifestEvent[] }).events ?? [];
  for (const event of events) {
    const minute = event.eventDate.slice(0, 16);
    const station = event.location?.code;
    // A milestone's actual is on the route map; a code beyond the milestones is in the history.
    const shown = MILESTONE_CODES.has(event.eventCode)
      ? milestones(history.RouteMap).some(
          (m) =>
            m.Name === event.eventCode &&
            m.Station === station &&
            m.ActualDateTime?.Utc.slice(0, 16) === minute,
        )
      : history.StatusMessages.some(
          (m) =>
            m.Code === event.eventCode && m.Station === station && m.DateTime.Utc.slice(0, 16) === minute,
        );
    const where = MILESTONE_CODES.has(event.eventCode) ? "on the route map" : "in the history";
    if (!shown) failed.push(`${event.eventCode} ${station} ${minute}Z not ${where}`);
  }
  return failed;
}
