/**
 * The carrier status-request channel: an FSR to a carrier through its StatusRequests channel as
 * support set it, read at delivery (a carrier without one is parked, replayable once it is set):
 * Url (POST, Standard Webhooks signature with the carrier's secret, `webhook-id` = the request id),
 * Email (SES, the message as the text) or Pull (put in the carrier's queue for GET /carrier/requests).
 * The message is rendered by core/status-requests.ts; the request is made by
 * use-cases/shared/status-requests.ts.
 */
import type { CarrierDirectory, CarrierRequestInbox } from "../../../ports/carriers.ts";
import type {
  EmailSender,
  EmailSuppressionList,
  OutboundPoster,
  StatusRequestJob,
} from "../../../ports/notifications.ts";
import { renderStatusRequest, type StatusRequestSettings } from "../../../status-requests.ts";
import { normaliseAddress } from "../../email-confirmations.ts";
import { signWebhook } from "../../signing.ts";
import type { DeliveryChannel } from "../channel.ts";
import { suppressedReason } from "../email-suppressions.ts";
import { fromHttp, fromSes, timeoutOf } from "../results.ts";

export interface StatusRequestChannelDeps {
  http: OutboundPoster;
  email: EmailSender;
  suppressions?: EmailSuppressionList;
  /** Carrier settings: where a status request goes (read at delivery, like a subscription). */
  carriers?: CarrierDirectory;
  /** The carriers' pull queues (status requests of channel "Pull"). */
  carrierInbox?: CarrierRequestInbox;
}

export interface StatusRequestTarget {
  job: StatusRequestJob;
  settings: StatusRequestSettings;
}

export const statusRequestChannel: DeliveryChannel<StatusRequestTarget, StatusRequestChannelDeps> = {
  kind: "status-request",

  async resolve(job, deps) {
    if (job.kind !== "status-request") return null;
    const prefix = job.request.carrierPrefix;
    const carrier = deps.carriers ? await deps.carriers.get(prefix) : null;
    if (!carrier) return { ok: false, reason: `carrier ${prefix} is not registered` };
    const settings = carrier.statusRequests;
    if (!settings)
      return {
        ok: false,
        reason: `carrier ${prefix} has no StatusRequests channel (replay once support sets one)`,
      };
    if (settings.channel === "Email") {
      const reason = await suppressedReason(deps.suppressions, normaliseAddress(settings.email ?? ""));
      if (reason) return { ok: false, suppressed: true, reason };
    }
    if (settings.channel === "Pull" && !deps.carrierInbox)
      return { ok: false, reason: "the carriers' pull queue is not available" };
    return { ok: true, target: { job, settings } };
  },

  async send({ job: { request }, settings }, deps, attempt) {
    const { contentType, body } = renderStatusRequest(request, settings.format);
    if (settings.channel === "Pull") {
      await deps.carrierInbox?.put({
        request,
        format: settings.format,
        contentType,
        body,
        availableAt: attempt.now,
      });
      return {
        outcome: 200,
        status: null,
        retryAfter: null,
        latencyMs: 0,
        detail: "in the carrier's pull queue (GET /carrier/requests)",
      };
    }
    if (settings.channel === "Email") {
      const escaped = body.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
      const awbText = `${request.awb.prefix}-${request.awb.serial}`;
      const sent = await deps.email.send({
        to: settings.email ?? "",
        subject: `FSR ${awbText} (${request.requestId})`,
        text: body,
        html: `<pre>${escaped}</pre>`,
      });
      return fromSes(sent);
    }
    const headers: Record<string, string> = { "content-type": contentType };
    if (settings.signingSecret)
      Object.assign(
        headers,
        signWebhook({
          id: request.requestId,
          timestampSeconds: attempt.sentAtSeconds,
          body,
          psk: settings.signingSecret,
        }),
      );
    const url = settings.url ?? "";
    return fromHttp(await deps.http.post({ url, headers, body, ...timeoutOf(attempt.timeoutMs) }));
  },
};
