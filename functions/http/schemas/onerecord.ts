/** The answer of POST /onerecord/notifications. */
import * as v from "valibot";
import type { NotificationOutcome } from "../../core/use-cases/receive-onerecord-notification.ts";
import { appliedBody } from "../problems.ts";
import { IngestResultSchema } from "./route-maps.ts";

export const OneRecordNotificationResultSchema = v.object({
  EventType: v.pipe(
    v.string(),
    v.description("The notification's api:hasEventType, e.g. LOGISTICS_EVENT_RECEIVED"),
  ),
  Fetched: v.pipe(
    v.array(v.string()),
    v.description(
      "The documents fetched from the carrier's ONE Record server, in order (none for other event types)",
    ),
  ),
  Applied: IngestResultSchema.entries.Applied,
});

export function oneRecordNotificationBody(outcome: NotificationOutcome) {
  return { EventType: outcome.eventType, Fetched: outcome.fetched, Applied: appliedBody(outcome.applied) };
}
