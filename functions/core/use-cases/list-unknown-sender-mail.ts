/** Mail from addresses no carrier registered (refused, nothing changed), newest first, by page. */
import type { InboundMailLog, InboundMailPage } from "../ports/inbound-mail.ts";

export interface ListUnknownSenderMailDeps {
  inboundLog: InboundMailLog;
}

export function listUnknownSenderMail(
  deps: ListUnknownSenderMailDeps,
  page: { limit: number; cursor: string | null },
): Promise<InboundMailPage> {
  return deps.inboundLog.list(null, page);
}
