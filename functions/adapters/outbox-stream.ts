/**
 * Outbox items as the RouteMaps stream hands them to a Lambda (a DynamoDBRecord's NewImage), decoded
 * into the domain event they carry: unmarshalled, then parsed with the one schema of the stored item
 * below (attribute names from functions/contracts/outbox.ts, as the route-map repository writes them).
 * Anything else decodes to null: a stream consumer logs and skips it, since retrying cannot fix it.
 */
import type { AttributeValue } from "@aws-sdk/client-dynamodb";
import { unmarshall } from "@aws-sdk/util-dynamodb";
import type { DynamoDBRecord } from "aws-lambda";
import * as v from "valibot";
import { OUTBOX_ATTRIBUTES, OUTBOX_KIND } from "../contracts/outbox.ts";
import { MILESTONE_NAMES } from "../core/carrier-messages/types.ts";
import type { MatchableEvent } from "../core/notifications/matching.ts";

const DateTimePairSchema = v.looseObject({ Utc: v.string(), Local: v.string() });

/**
 * A DomainEvent (functions/core/events.ts) as stored, ProActive ones with their minutes. Loose
 * objects: whatever else an item carries is kept as it is, not stripped.
 */
const OutboxEventSchema = v.looseObject({
  eventId: v.string(),
  recordedAt: v.string(),
  version: v.number(),
  audience: v.looseObject({
    ownerAgent: v.nullable(v.looseObject({ code: v.string(), cass: v.string() })),
    xtdForwarders: v.array(v.string()),
  }),
  name: v.picklist([...MILESTONE_NAMES, "RMP", "CAN"]),
  type: v.picklist(["Event", "Missed", "ProActive"]),
  eventStatus: v.picklist(["Creation", "Replan", "Update"]),
  awb: v.looseObject({ prefix: v.string(), serial: v.string() }),
  station: v.string(),
  origin: v.string(),
  destination: v.string(),
  flight: v.nullable(v.looseObject({ carrierCode: v.string(), flightNumber: v.string() })),
  piecesReported: v.number(),
  totalPieces: v.number(),
  weightReported: v.nullable(v.number()),
  weightCode: v.nullable(v.string()),
  reported: v.nullable(DateTimePairSchema),
  planned: v.nullable(DateTimePairSchema),
  isRM: v.boolean(),
  milestoneKey: v.nullable(v.string()),
  proActiveMinutes: v.optional(v.number()),
}) satisfies v.GenericSchema<unknown, MatchableEvent>;

/** The outbox item: its kind marks it, its event is the fact. */
const OutboxItemSchema = v.looseObject({
  [OUTBOX_ATTRIBUTES.kind]: v.literal(OUTBOX_KIND),
  [OUTBOX_ATTRIBUTES.event]: OutboxEventSchema,
});

/** The domain event of an outbox insert, or null for any other record (another item, a malformed one). */
export function outboxEventOf(record: DynamoDBRecord): MatchableEvent | null {
  const image = record.dynamodb?.NewImage;
  if (!image) return null;
  // aws-lambda's and the SDK's AttributeValue types describe the same JSON.
  const parsed = v.safeParse(OutboxItemSchema, unmarshall(image as Record<string, AttributeValue>));
  return parsed.success ? parsed.output[OUTBOX_ATTRIBUTES.event] : null;
}
