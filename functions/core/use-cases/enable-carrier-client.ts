/** Switches one of a carrier's clients on again. Another tenant's client is 404. */
import { type ClientView, carrierRef, setTenantClientEnabled, type TenantDeps } from "./shared/tenants.ts";

export async function enableCarrierClient(
  deps: TenantDeps,
  input: { prefix: string; clientId: string },
): Promise<ClientView> {
  return setTenantClientEnabled(deps, {
    ref: carrierRef(input.prefix),
    clientId: input.clientId,
    enabled: true,
  });
}
