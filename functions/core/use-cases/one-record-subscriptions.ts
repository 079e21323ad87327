/**
 * ONE Record subscriptions of a forwarder's client to our logistics objects: subscribe (one Waybill,
 * Shipment or TransportMovement, or every object of a type the caller may see), read and revoke the
 * SubscriptionRequest, the deliveries of one with their attempt log, and replay of one. Deny by
 * default: an object subscription needs the AWB to be readable by the caller on the REST API (owner,
 * XTD grant) now, and the matcher re-checks the audience for every event; a subscription of another
 * forwarder answers 404 exactly like an unknown one.
 */
import type { ForwarderIdentity } from "../identity.ts";
import { objectId } from "../one-record-server/ids.ts";
import { document, type Links, objectUrl } from "../one-record-server/objects.ts";
import {
  actionRequestUrl,
  type OneRecordSubscription,
  readSubscription,
  subscriptionRequest,
  topicIri,
} from "../one-record-server/subscriptions.ts";
import { API_NS, type JsonLd } from "../one-record-server/vocabulary.ts";
import type {
  DeliveryJobQueue,
  DeliveryRecord,
  DeliveryRepository,
  Page,
  PageRequest,
} from "../ports/notifications.ts";
import type { OneRecordSubscriptionStore } from "../ports/one-record.ts";
import type { RouteMapRepository } from "../ports/route-maps.ts";
import { requeueDelivery } from "./shared/deliveries.ts";
import { mayRead } from "./shared/read-access.ts";

export interface OneRecordSubscriptionDeps {
  oneRecordSubscriptions: OneRecordSubscriptionStore;
  routeMaps: Pick<RouteMapRepository, "getView">;
}

export type SubscriptionAnswer =
  | { kind: "created"; location: string; type: string }
  | { kind: "ok"; body: JsonLd; type: string; lastModified: string }
  | { kind: "revoked" }
  | { kind: "bad-request"; detail: string }
  | { kind: "forbidden"; detail: string }
  | { kind: "not-found"; detail: string };

const REQUEST_TYPE = `${API_NS}SubscriptionRequest`;

export async function createOneRecordSubscription(
  deps: OneRecordSubscriptionDeps,
  input: { body: unknown; caller: ForwarderIdentity; links: Links; now: string },
): Promise<SubscriptionAnswer> {
  const read = readSubscription(input.body, input.links, input.now);
  if (!read.ok) return { kind: "bad-request", detail: read.detail };
  const { topic } = read.value;
  if (topic.kind === "object") {
    // Unknown and not-yours are the same refusal: the answer never tells whether the AWB exists.
    const view = await deps.routeMaps.getView(topic.awb);
    if (view === null || !mayRead(view, input.caller))
      return { kind: "forbidden", detail: "This logistics object is not shared with the caller." };
  }
  const { forwarderId, agentCode, agentCass, agentStation } = input.caller;
  const sub = await deps.oneRecordSubscriptions.insert({
    ...read.value,
    owner: { forwarderId, agentCode, agentCass, agentStation },
    serverBase: input.links.base,
    requestedAt: input.now,
    status: "REQUEST_ACCEPTED",
    revokedAt: null,
  });
  return { kind: "created", location: actionRequestUrl(input.links, sub.id), type: REQUEST_TYPE };
}

const notFound = (id: number | string): SubscriptionAnswer => ({
  kind: "not-found",
  detail: `No action request ${id}.`,
});

async function owned(
  deps: Pick<OneRecordSubscriptionDeps, "oneRecordSubscriptions">,
  id: number,
  caller: ForwarderIdentity,
): Promise<OneRecordSubscription | null> {
  const sub = await deps.oneRecordSubscriptions.get(id);
  return sub && sub.owner.forwarderId === caller.forwarderId ? sub : null;
}

export async function getOneRecordActionRequest(
  deps: Pick<OneRecordSubscriptionDeps, "oneRecordSubscriptions">,
  input: { id: number; caller: ForwarderIdentity; links: Links },
): Promise<SubscriptionAnswer> {
  const sub = await owned(deps, input.id, input.caller);
  if (!sub) return notFound(input.id);
  const topic = topicIri(sub.topic, (t) => objectUrl(input.links, objectId(t.objectType, t.awb, t.leg)));
  return {
    kind: "ok",
    body: document(subscriptionRequest(input.links, sub, topic)),
    type: REQUEST_TYPE,
    lastModified: sub.revokedAt ?? sub.requestedAt,
  };
}

/** DELETE of the SubscriptionRequest: the subscription stops (no further notification is matched). */
export async function revokeOneRecordActionRequest(
  deps: Pick<OneRecordSubscriptionDeps, "oneRecordSubscriptions">,
  input: { id: number; caller: ForwarderIdentity; now: string },
): Promise<SubscriptionAnswer> {
  const sub = await owned(deps, input.id, input.caller);
  if (!sub) return notFound(input.id);
  await deps.oneRecordSubscriptions.revoke(sub.id, input.now);
  return { kind: "revoked" };
}

export interface OneRecordDeliveryDeps {
  oneRecordSubscriptions: Pick<OneRecordSubscriptionStore, "get">;
  deliveries: DeliveryRepository;
}

/** The subscription's deliveries and their attempt logs (parked ones included), newest first; null: not the caller's. */
export async function listOneRecordDeliveries(
  deps: OneRecordDeliveryDeps,
  input: { id: number; caller: ForwarderIdentity; page: PageRequest },
): Promise<Page<DeliveryRecord> | null> {
  const sub = await deps.oneRecordSubscriptions.get(input.id);
  if (!sub || sub.owner.forwarderId !== input.caller.forwarderId) return null;
  return deps.deliveries.listForSubscription("onerecord", sub.id, input.page);
}

/** One new attempt of a delivered or parked delivery (409 while in progress); null: not the caller's. */
export async function replayOneRecordDelivery(
  deps: OneRecordDeliveryDeps & { queue: DeliveryJobQueue },
  input: { id: number; deliveryId: string; caller: ForwarderIdentity; now: string },
) {
  const sub = await deps.oneRecordSubscriptions.get(input.id);
  if (!sub || sub.owner.forwarderId !== input.caller.forwarderId) return null;
  const delivery = await deps.deliveries.get(input.deliveryId);
  if (delivery?.subscriptionKind !== "onerecord" || delivery.subscriptionId !== sub.id) return null;
  return requeueDelivery(deps, delivery, input.now);
}
