/**
 * A received carrier mail: SES stored it in S3 and invokes this (event invocation; locally the SMTP
 * listener, same event). A store failure throws: Lambda retries; applied messages then are repeats.
 */
import type { Context, SESEvent } from "aws-lambda";
import { logger } from "../../adapters/logger.ts";
import { inboundMailOf } from "../../adapters/ses-receipt-event.ts";
import { traced } from "../../adapters/tracer.ts";
import type { ReceivedMailStore } from "../../core/ports/inbound-mail.ts";
import {
  type InboundCarrierMailDeps,
  inboundCarrierMail,
} from "../../core/use-cases/inbound-carrier-mail.ts";
import * as wired from "../../wiring.ts";

export const make =
  (deps: () => InboundCarrierMailDeps & { mails: ReceivedMailStore }) =>
  async (event: SESEvent, context: Context): Promise<void> => {
    for (const { ses } of event.Records) {
      const { mails, ...useCaseDeps } = deps();
      const mail = inboundMailOf(ses, await mails.read(ses.mail.messageId));
      const timeLeftMs = () => context.getRemainingTimeInMillis();
      const { entry, reply } = await inboundCarrierMail(useCaseDeps, mail, { timeLeftMs });
      const { applied, ...logged } = entry;
      const log = reply?.kind === "failed" ? logger.error.bind(logger) : logger.info.bind(logger);
      log("inbound carrier mail", { ...logged, messages: applied.length, reply: reply ?? null });
    }
  };

export const handler = traced(
  make(() => ({
    mails: wired.receivedMails(),
    senders: wired.inboundSenders(),
    carriers: wired.carrierDirectory(),
    tenants: wired.tenants(),
    inboundLog: wired.inboundMailLog(),
    email: wired.emailSender(),
    routeMaps: wired.routeMaps(),
    backoff: wired.conflictBackoff(),
    rawMessages: wired.rawMessages(),
    changeObserver: wired.routeMapChangeObserver(),
  })),
);
