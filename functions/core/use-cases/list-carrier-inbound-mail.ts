/** A carrier's inbound mail log, newest first, a page at a time (404 without carrier settings). */
import { CarrierNotFoundError } from "../errors.ts";
import type { CarrierDirectory } from "../ports/carriers.ts";
import type { InboundMailLog, InboundMailPage } from "../ports/inbound-mail.ts";

export interface ListCarrierInboundMailDeps {
  carriers: CarrierDirectory;
  inboundLog: InboundMailLog;
}

export async function listCarrierInboundMail(
  deps: ListCarrierInboundMailDeps,
  input: { prefix: string; page: { limit: number; cursor: string | null } },
): Promise<InboundMailPage> {
  if (!(await deps.carriers.get(input.prefix))) throw new CarrierNotFoundError(input.prefix);
  return deps.inboundLog.list(input.prefix, input.page);
}
