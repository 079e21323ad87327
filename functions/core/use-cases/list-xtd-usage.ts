/** GET /support/usage?month=YYYY-MM: every forwarder's count of XTD requests in the month (UTC). */
import type { UsageLedger } from "../ports/carriers.ts";
import type { Page, PageRequest } from "../ports/notifications.ts";

export interface ListXtdUsageDeps {
  usage: UsageLedger;
}

export async function listXtdUsage(
  deps: ListXtdUsageDeps,
  input: { month: string; page: PageRequest },
): Promise<{ total: number; forwarders: Page<{ forwarderId: string; count: number }> }> {
  const all = await deps.usage.forMonth(input.month);
  const start = (input.page.page - 1) * input.page.pageSize;
  return {
    total: all.reduce((sum, forwarder) => sum + forwarder.count, 0),
    forwarders: { items: all.slice(start, start + input.page.pageSize), total: all.length },
  };
}
