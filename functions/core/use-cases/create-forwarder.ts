/** Support onboards a forwarder: its profile, enabled (409 TenantExistsError when it already exists). */
import type { ForwarderTenant } from "../tenants/tenants.ts";
import type { TenantDeps } from "./shared/tenants.ts";

export type ForwarderProfile = Pick<
  ForwarderTenant,
  "forwarderId" | "name" | "agentCode" | "agentCass" | "agentStation" | "contactEmail"
>;

export async function createForwarder(
  deps: TenantDeps,
  input: { profile: ForwarderProfile; now: string },
): Promise<ForwarderTenant> {
  const forwarder: ForwarderTenant = {
    kind: "forwarder",
    ...input.profile,
    enabled: true,
    createdAt: input.now,
    updatedAt: input.now,
  };
  await deps.tenants.createTenant(forwarder);
  return forwarder;
}
