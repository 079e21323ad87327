/**
 * GET /ffw/service/routemap/usage?month=YYYY-MM: the caller's XTD requests of the month (UTC), counted
 * and listed oldest first: every accepted XTD sendsme, including those that collapsed into an earlier
 * status request for the AWB (the forwarder asked; `Collapsed` says the carrier was not asked again).
 */
import type { UsageEntry, UsageLedger } from "../ports/carriers.ts";
import type { Page, PageRequest } from "../ports/notifications.ts";

export interface GetXtdUsageDeps {
  usage: UsageLedger;
}

export function getXtdUsage(
  deps: GetXtdUsageDeps,
  input: { forwarderId: string; month: string; page: PageRequest },
): Promise<{ count: number; entries: Page<UsageEntry> }> {
  return deps.usage.forForwarder(input.forwarderId, input.month, input.page);
}
