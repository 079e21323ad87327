/**
 * The delivery channels, in one list. The delivery use case asks them, in this order, which one
 * carries a job: the first whose `resolve` does not answer null. A new channel is its folder, its line
 * in ChannelDeps and in CHANNELS here, and the deliverer's grant (lib/function-access.ts).
 */
import type { DeliveryJob } from "../../ports/notifications.ts";
import type { AttemptContext, AttemptSettings, DeliveryChannel, SendResult } from "./channel.ts";
import { type CustomerEndpointChannelDeps, customerEndpointChannel } from "./customer-endpoint/channel.ts";
import { type EmailChannelDeps, emailChannel } from "./email/channel.ts";
import { type OneRecordChannelDeps, oneRecordChannel } from "./one-record/channel.ts";
import { type StatusRequestChannelDeps, statusRequestChannel } from "./status-request/channel.ts";
import { type WebhookChannelDeps, webhookChannel } from "./webhook/channel.ts";

/** What the channels need between them: the delivery use case's dependencies include all of it. */
export type ChannelDeps = EmailChannelDeps &
  CustomerEndpointChannelDeps &
  WebhookChannelDeps &
  StatusRequestChannelDeps &
  OneRecordChannelDeps;

/** The job's channel, ready to send to the target it resolved; or why nothing is sent. */
export type Preparation =
  | {
      ok: true;
      kind: string;
      send: () => Promise<SendResult>;
      /** What a 410 Gone switches off (see DeliveryChannel.switchOff); absent: nothing. */
      switchOff?: (now: string) => Promise<string>;
    }
  | { ok: false; reason: string; suppressed?: true };

/** A channel as the list holds it: its target stays between its own `resolve` and `send`. */
type Listed<Deps> = (job: DeliveryJob, deps: Deps, attempt: AttemptContext) => Promise<Preparation | null>;

function listed<Target, Deps>(channel: DeliveryChannel<Target, Deps>): Listed<Deps> {
  return async (job, deps, attempt) => {
    const resolved = await channel.resolve(job, deps, attempt);
    if (!resolved?.ok) return resolved;
    const { target } = resolved;
    const { switchOff } = channel;
    return {
      ok: true,
      kind: channel.kind,
      send: () => channel.send(target, deps, attempt),
      ...(switchOff ? { switchOff: (now: string) => switchOff(target, deps, now) } : {}),
    };
  };
}

const CHANNELS: readonly Listed<ChannelDeps>[] = [
  listed(emailChannel),
  listed(customerEndpointChannel),
  listed(webhookChannel),
  listed(statusRequestChannel),
  listed(oneRecordChannel),
];

/** The channel that carries the job, with its target read from the store just now. */
export async function prepareDelivery(
  job: DeliveryJob,
  deps: ChannelDeps,
  settings: AttemptSettings,
): Promise<Preparation> {
  const reads = new Map<string, Promise<unknown>>();
  const attempt: AttemptContext = {
    ...settings,
    readOnce<T>(key: string, read: () => Promise<T>): Promise<T> {
      if (!reads.has(key)) reads.set(key, read());
      // One key is only ever read by one function (its module's), so its promise has that type.
      return reads.get(key) as Promise<T>;
    },
  };
  for (const prepare of CHANNELS) {
    const prepared = await prepare(job, deps, attempt);
    if (prepared) return prepared;
  }
  return { ok: false, reason: "no delivery channel carries this job" };
}
