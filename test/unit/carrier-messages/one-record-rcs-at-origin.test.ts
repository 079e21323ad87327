/**
 * An RCS that names no location is the consignment received at its AWB's origin: the real RCS
 * event of a 2026 ONE Record hackathon's Postman collection (test/fixtures/real, byte for byte)
 * for the Waybill its "Create Waybill" request creates, embedded as the notification path embeds a
 * fetched eventFor. Any other code without a location is still refused.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseOneRecordEvents } from "../../../functions/core/carrier-messages/index.ts";
import { MessageParseError } from "../../../functions/core/errors.ts";

interface PostmanItem {
  name: string;
  item?: PostmanItem[];
  request?: { body?: { raw?: string } };
}
const collection = JSON.parse(
  readFileSync(new URL("../../fixtures/real/1r-postman-3-gls2026-1.json", import.meta.url), "utf8"),
) as { item: PostmanItem[] };
const requests = (items: PostmanItem[]): PostmanItem[] =>
  items.flatMap((i) => (i.item ? requests(i.item) : [i]));
const body = (name: string) =>
  JSON.parse(requests(collection.item).find((r) => r.name === name)?.request?.body?.raw ?? "null") as Record<
    string,
    unknown
  >;

/** The event with its Waybill embedded in place of the `{{...}}` IRI Postman fills in. */
function withWaybill(event: Record<string, unknown>): Record<string, unknown> {
  const waybill = { ...body("Create Waybill"), "@id": "https://neone.example/logistics-objects/wb1" };
  return { ...event, "cargo:eventFor": waybill };
}

describe("ONE Record RCS without a location", () => {
  it("is the receipt at the AWB's origin (HKG), at the event's time", () => {
    const [report] = parseOneRecordEvents(withWaybill(body("POST LE (RCS)")));
    expect(report).toMatchObject({
      kind: "status",
      status: "RCS",
      awb: { prefix: "000", serial: "43020261" },
      origin: "HKG",
      destination: "TPE",
      station: "HKG",
      time: { year: 2026, month: 4, day: 27, hour: 13, minute: 50, utcOffsetMinutes: 480 },
    });
  });

  it("any other code without a location is refused, naming the event", () => {
    const arrival = {
      ...body("POST LE (RCS)"),
      "cargo:eventCode": { "@id": "https://onerecord.iata.org/ns/code-lists/StatusCode#ARR" },
    };
    expect(() => parseOneRecordEvents(withWaybill(arrival))).toThrow(MessageParseError);
    expect(() => parseOneRecordEvents(withWaybill(arrival))).toThrow(/eventLocation/);
  });
});
