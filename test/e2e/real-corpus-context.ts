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

/**
 * The hackathon's Postman collection in its own context: its "Create Waybill" body is the Waybill
 * its NE:ONE server holds, and its "POST LE (SAC)" and "POST LE (RCS)" bodies that Waybill's events,
 * received when they were sent. The `{{...}}` variables are what Postman fills in from its
 * environment, which the collection does not publish: ours name a stand-in server and its objects.
 */
export const POSTMAN_FILE = "1r-postman-3-gls2026-1.json";
export const NEONE_ORIGIN = "https://neone.example";
export const POSTMAN_WAYBILL = `${NEONE_ORIGIN}/logistics-objects/waybill-1`;
export const POSTMAN_AWB = "000-43020261";
export const POSTMAN_RECEIVED_AT = "2026-04-27T06:00:00Z";
const POSTMAN_VARIABLES: Record<string, string> = {
  neoneApiDomain: NEONE_ORIGIN,
  waybillLoid: "waybill-1",
  organizationLoid: "organization-1",
};

interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: { body?: { raw?: string } };
}

function postmanBody(name: string): string {
  const collection = JSON.parse(real(POSTMAN_FILE)) as { item: PostmanItem[] };
  const requests = (items: PostmanItem[]): PostmanItem[] =>
    items.flatMap((i) => (i.item ? requests(i.item) : [i]));
  const raw = requests(collection.item).find((r) => r.name === name)?.request?.body?.raw;
  if (raw === undefined) throw new Error(`the collection has no request ${name}`);
  return raw.replace(/\{\{(\w+)\}\}/g, (whole, key: string) => POSTMAN_VARIABLES[key] ?? whole);
}

/** Path -> document the NE:ONE stand-in serves (the Waybill, its events, the recording organisation). */
export function postmanDocuments(): Map<string, string> {
  const path = (iri: string) => new URL(iri).pathname;
  return new Map([
    [path(POSTMAN_WAYBILL), postmanBody("Create Waybill")],
    [
      `${path(POSTMAN_WAYBILL)}/logistics-events`,
      collection([postmanBody("POST LE (SAC)"), postmanBody("POST LE (RCS)")]),
    ],
    [path(`${NEONE_ORIGIN}/logistics-objects/organization-1`), postmanBody("Create a Organization")],
  ]);
}

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
  codeForm?: string;
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
    // A code of the publisher's own list (codeListName "SAC") is no StatusCode: the service skips it.
    if (!MILESTONE_CODES.has(event.eventCode) && !/StatusCode/.test(event.codeForm ?? "")) continue;
    const minute = event.eventDate.slice(0, 16);
    // An event without a location (an RCS) stands for the AWB's origin.
    const station = event.location?.code ?? (event.eventCode === "RCS" ? expected?.origin : undefined);
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
