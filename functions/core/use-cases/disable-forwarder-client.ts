/** Switches one of a forwarder's clients off: it gets no token. Another tenant's client is 404. */
import { type ClientView, forwarderRef, setTenantClientEnabled, type TenantDeps } from "./shared/tenants.ts";

export async function disableForwarderClient(
  deps: TenantDeps,
  input: { forwarderId: string; clientId: string },
): Promise<ClientView> {
  return setTenantClientEnabled(deps, {
    ref: forwarderRef(input.forwarderId),
    clientId: input.clientId,
    enabled: false,
  });
}
