/** Switches one of a forwarder's clients on again. Another tenant's client is 404. */
import { type ClientView, forwarderRef, setTenantClientEnabled, type TenantDeps } from "./shared/tenants.ts";

export async function enableForwarderClient(
  deps: TenantDeps,
  input: { forwarderId: string; clientId: string },
): Promise<ClientView> {
  return setTenantClientEnabled(deps, {
    ref: forwarderRef(input.forwarderId),
    clientId: input.clientId,
    enabled: true,
  });
}
