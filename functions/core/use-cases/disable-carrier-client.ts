/** Switches one of a carrier's clients off: it gets no token. Another tenant's client is 404. */
import { type ClientView, carrierRef, setTenantClientEnabled, type TenantDeps } from "./shared/tenants.ts";

export async function disableCarrierClient(
  deps: TenantDeps,
  input: { prefix: string; clientId: string },
): Promise<ClientView> {
  return setTenantClientEnabled(deps, {
    ref: carrierRef(input.prefix),
    clientId: input.clientId,
    enabled: false,
  });
}
