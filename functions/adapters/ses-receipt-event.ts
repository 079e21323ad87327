/**
 * SES's Lambda-action event for a received mail (also what the local SMTP listener sends): the message
 * id naming the stored raw mail, the receipt time and the spam, virus, SPF and DKIM verdicts, joined
 * with the mail's parsed content into the mail the core reads.
 */
import type { SESMail, SESReceipt } from "aws-lambda";
import type { InboundMail } from "../core/inbound-mail.ts";
import type { ReceivedMailContent } from "../core/ports/inbound-mail.ts";

export function inboundMailOf(
  record: { mail: SESMail; receipt: SESReceipt },
  content: ReceivedMailContent,
): InboundMail {
  const { mail, receipt } = record;
  return {
    ...content,
    messageId: mail.messageId,
    receivedAt: new Date(mail.timestamp).toISOString(),
    verdicts: {
      spam: receipt.spamVerdict.status,
      virus: receipt.virusVerdict.status,
      spf: receipt.spfVerdict.status,
      dkim: receipt.dkimVerdict.status,
    },
  };
}
