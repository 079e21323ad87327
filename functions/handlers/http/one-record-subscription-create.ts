/** POST /onerecord/subscriptions: a forwarder's client subscribes; 201 with the SubscriptionRequest's Location. */
import { nowIso } from "../../adapters/clock.ts";
import {
  createOneRecordSubscription,
  type OneRecordSubscriptionDeps,
} from "../../core/use-cases/one-record-subscriptions.ts";
import { oneRecordLinks } from "../../http/one-record.ts";
import { jsonOf, oneRecordError, subscriptionAnswer } from "../../http/one-record-subscriptions.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { httpPipeline, oneRecordSubscriptions, routeMaps } from "../../wiring.ts";

export const make = (deps: () => OneRecordSubscriptionDeps, pipeline?: Pipeline) =>
  httpRoute("one-record-subscription-create", { rawBody: true }, pipeline).handle(
    async ({ identity, rawBody, baseUrl }) => {
      const links = oneRecordLinks(baseUrl);
      const body = jsonOf(rawBody);
      if (!body.ok) return oneRecordError(links, 400, "The body is not JSON.");
      const input = { body: body.value, caller: identity, links, now: nowIso() };
      return subscriptionAnswer(links, await createOneRecordSubscription(deps(), input));
    },
  );

export const handler = make(
  () => ({ oneRecordSubscriptions: oneRecordSubscriptions(), routeMaps: routeMaps() }),
  httpPipeline,
);
