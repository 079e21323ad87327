/**
 * SES's Lambda-action event for a received mail (also what the local SMTP listener sends): the message
 * id naming the stored raw mail, the receipt time and the spam, virus, SPF and DKIM verdicts, joined
 * with the mail's parsed content into the mail the core reads.
 */
import type { SESMail, SESReceipt } from "aws-lambda";
import type { InboundMail } from "../core/inbound-mail.ts";
import type { ReceivedMailContent } from "../core/ports/inbound-mail.ts";
import { addressesOf } from "./mime-structure.ts";

/**
 * The mail as the core reads it. A mail whose content was not read (too large to fetch) may name no
 * sender or subject of its own: SES's parse of its headers (commonHeaders) gives them then.
 */
export function inboundMailOf(
  record: { mail: SESMail; receipt: SESReceipt },
  content: ReceivedMailContent,
): InboundMail {
  const { mail, receipt } = record;
  const sesSender = addressesOf(mail.commonHeaders?.from?.[0] ?? "")[0]?.toLowerCase() ?? "";
  return {
    ...content,
    sender: content.sender === "" ? sesSender : content.sender,
    subject: content.subject === "" ? (mail.commonHeaders?.subject ?? "") : content.subject,
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
