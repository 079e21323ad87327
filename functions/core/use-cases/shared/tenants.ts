/**
 * Support's onboarding of tenants and their machine clients, for every tenant kind: the use cases of
 * the /support/forwarders and /support/carriers routes bind these to their kind. Refusals are raised
 * before anything is written; a client is registered (Cognito app client in AWS) before its record is
 * stored, and deregistered again when the record cannot be stored.
 *
 * A carrier tenant is the carrier support stored settings for (PUT /support/carriers/{prefix}): every
 * carrier route refuses a prefix without settings (404), and its tenant profile is created, enabled,
 * on the first write that needs it (the PUT of its settings, its first client, enable/disable).
 */
import type { CarrierSettings } from "../../carriers.ts";
import {
  CarrierNotFoundError,
  TenantClientNotFoundError,
  TenantExistsError,
  TenantNotFoundError,
} from "../../errors.ts";
import type { CarrierDirectory } from "../../ports/carriers.ts";
import type { ClientRegistry, IssuedClientCredential, TenantRepository } from "../../ports/tenants.ts";
import {
  type CarrierTenant,
  type ForwarderTenant,
  TENANT_SCOPES,
  type Tenant,
  type TenantClient,
  type TenantRef,
  tenantIdOf,
} from "../../tenants/tenants.ts";

export interface TenantDeps {
  tenants: TenantRepository;
}

export interface CarrierTenantDeps extends TenantDeps {
  carriers: CarrierDirectory;
}

export interface TenantClientDeps extends TenantDeps {
  clients: ClientRegistry;
}

export const forwarderRef = (forwarderId: string): TenantRef => ({ kind: "forwarder", forwarderId });
export const carrierRef = (carrierPrefix: string): TenantRef => ({ kind: "carrier", carrierPrefix });

/** A client as support sees it: never its secret (nor the secret's hash). */
export type ClientView = Omit<TenantClient, "secretHash">;

export const clientView = ({ secretHash: _hidden, ...client }: TenantClient): ClientView => client;

/** A newly created client with its secret, shown once. */
export interface CreatedClient extends ClientView {
  clientSecret: string;
}

export async function requireTenant(deps: TenantDeps, ref: TenantRef): Promise<Tenant> {
  const tenant = await deps.tenants.getTenant(ref);
  if (!tenant) throw new TenantNotFoundError(ref.kind, tenantIdOf(ref));
  return tenant;
}

/** The carrier's settings, or CarrierNotFoundError: support stores them before onboarding its clients. */
export async function requireCarrierSettings(
  deps: CarrierTenantDeps,
  prefix: string,
): Promise<CarrierSettings> {
  const settings = await deps.carriers.get(prefix);
  if (!settings) throw new CarrierNotFoundError(prefix);
  return settings;
}

/**
 * The tenant profile of a carrier whose settings are stored; created (enabled) when it has none yet.
 * The caller has checked the settings.
 */
export async function ensureCarrierTenant(
  deps: TenantDeps,
  prefix: string,
  now: string,
): Promise<CarrierTenant> {
  const existing = await deps.tenants.getTenant(carrierRef(prefix));
  if (existing?.kind === "carrier") return existing;
  const created: CarrierTenant = {
    kind: "carrier",
    carrierPrefix: prefix,
    enabled: true,
    createdAt: now,
    updatedAt: now,
  };
  try {
    await deps.tenants.createTenant(created);
    return created;
  } catch (error) {
    // Created meanwhile by a concurrent request: that one is the profile.
    if (!(error instanceof TenantExistsError)) throw error;
    const raced = await deps.tenants.getTenant(carrierRef(prefix));
    if (raced?.kind !== "carrier") throw error;
    return raced;
  }
}

/** Deps of the routes of any tenant kind: a carrier's routes also read its settings. */
type AnyTenantDeps = TenantDeps & { carriers?: CarrierDirectory };

/** Refuses (404) a carrier without settings; a forwarder or support tenant passes unchecked. */
async function requireCarrierOf(deps: AnyTenantDeps, ref: TenantRef): Promise<void> {
  if (ref.kind !== "carrier") return;
  if (!deps.carriers) throw new Error("the carrier routes need the carrier directory");
  await requireCarrierSettings({ tenants: deps.tenants, carriers: deps.carriers }, ref.carrierPrefix);
}

/**
 * The tenant a route writes under, or its 404: a forwarder (or support) must be onboarded; a carrier
 * must have settings, and its profile is created when it has none.
 */
async function tenantToWrite(deps: AnyTenantDeps, ref: TenantRef, now: string): Promise<Tenant> {
  if (ref.kind !== "carrier") return requireTenant(deps, ref);
  await requireCarrierOf(deps, ref);
  return ensureCarrierTenant(deps, ref.carrierPrefix, now);
}

/** As tenantToWrite, but a carrier (with settings) without a profile yet is null: nothing of it exists. */
async function tenantToRead(deps: AnyTenantDeps, ref: TenantRef): Promise<Tenant | null> {
  if (ref.kind !== "carrier") return requireTenant(deps, ref);
  await requireCarrierOf(deps, ref);
  return deps.tenants.getTenant(ref);
}

/**
 * Switches a tenant on or off (a disabled tenant's clients get no token; tokens already issued run
 * out within their hour). Idempotent; a carrier's profile is created when it had none.
 */
export async function setTenantEnabled(
  deps: AnyTenantDeps,
  input: { ref: TenantRef; enabled: boolean; now: string },
): Promise<Tenant> {
  const tenant = await tenantToWrite(deps, input.ref, input.now);
  if (tenant.enabled === input.enabled) return tenant;
  const updated: Tenant = { ...tenant, enabled: input.enabled, updatedAt: input.now };
  await deps.tenants.updateTenant(updated);
  return updated;
}

/**
 * Deletes a tenant: each of its clients is removed from the registry (no new token for it), then the
 * tenant's records. A carrier's settings stay (they are its participation, PUT /support/carriers).
 * Returns the ids of the clients removed.
 */
export async function deleteTenant(
  deps: TenantClientDeps & AnyTenantDeps,
  ref: TenantRef,
): Promise<string[]> {
  // A carrier with settings but no profile yet has nothing to delete.
  if (!(await tenantToRead(deps, ref))) return [];
  const listed = (await deps.tenants.listClients(ref)).map((client) => client.clientId);
  for (const clientId of listed) await deps.clients.deregister(clientId);
  const deleted = await deps.tenants.deleteTenant(ref);
  // A client created while this ran: deregister it too.
  for (const clientId of deleted) if (!listed.includes(clientId)) await deps.clients.deregister(clientId);
  return [...new Set([...listed, ...deleted])];
}

/**
 * A new machine client of the tenant, with its secret (shown once). Allowed for a disabled tenant (the
 * client gets no token until the tenant is enabled). The registry entry is removed again when the
 * record cannot be stored, so no credential outlives a failed request.
 */
export async function createTenantClient(
  deps: TenantClientDeps & AnyTenantDeps,
  input: { ref: TenantRef; name: string | null; now: string },
): Promise<CreatedClient> {
  const { ref, name, now } = input;
  await tenantToWrite(deps, ref, now);
  const issued: IssuedClientCredential = await deps.clients.register({
    tenant: ref,
    scope: TENANT_SCOPES[ref.kind],
    name,
  });
  const client: TenantClient = {
    clientId: issued.clientId,
    tenant: ref,
    name,
    enabled: true,
    createdAt: now,
    secretHash: issued.secretHash,
  };
  try {
    await deps.tenants.createClient(client);
  } catch (error) {
    await deps.clients.deregister(issued.clientId);
    throw error;
  }
  return { ...clientView(client), clientSecret: issued.clientSecret };
}

/** The tenant's clients, oldest first, without secrets. */
export async function listTenantClients(deps: AnyTenantDeps, ref: TenantRef): Promise<ClientView[]> {
  // A carrier without a profile has no client yet.
  if (!(await tenantToRead(deps, ref))) return [];
  const clients = await deps.tenants.listClients(ref);
  return clients
    .sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.clientId.localeCompare(b.clientId))
    .map(clientView);
}

const sameTenant = (a: TenantRef, b: TenantRef) => a.kind === b.kind && tenantIdOf(a) === tenantIdOf(b);

/** The client under this tenant; another tenant's client is as unknown as a missing one (404). */
async function requireClient(deps: TenantDeps, ref: TenantRef, clientId: string): Promise<TenantClient> {
  const client = await deps.tenants.getClient(clientId);
  if (!client || !sameTenant(client.tenant, ref)) throw new TenantClientNotFoundError(clientId);
  return client;
}

/** Switches one client on or off (a disabled client gets no token). Idempotent. */
export async function setTenantClientEnabled(
  deps: TenantDeps,
  input: { ref: TenantRef; clientId: string; enabled: boolean },
): Promise<ClientView> {
  const client = await requireClient(deps, input.ref, input.clientId);
  if (client.enabled === input.enabled) return clientView(client);
  const updated: TenantClient = { ...client, enabled: input.enabled };
  await deps.tenants.updateClient(updated);
  return clientView(updated);
}

/** Deletes one client: out of the registry first (no new token), then its record. */
export async function deleteTenantClient(
  deps: TenantClientDeps,
  input: { ref: TenantRef; clientId: string },
): Promise<ClientView> {
  const client = await requireClient(deps, input.ref, input.clientId);
  await deps.clients.deregister(client.clientId);
  await deps.tenants.deleteClient(client.clientId);
  return clientView(client);
}

/** The tenant as a forwarder (the repository returns the kind it was asked for). */
export function asForwarder(tenant: Tenant): ForwarderTenant {
  if (tenant.kind !== "forwarder") throw new Error(`expected a forwarder tenant, got a ${tenant.kind}`);
  return tenant;
}

/** A carrier as support sees it: its tenant profile with its settings (null if none are stored). */
export interface CarrierView {
  tenant: CarrierTenant;
  settings: CarrierSettings | null;
}

export async function carrierView(deps: CarrierTenantDeps, tenant: Tenant): Promise<CarrierView> {
  if (tenant.kind !== "carrier") throw new Error(`expected a carrier tenant, got a ${tenant.kind}`);
  return { tenant, settings: await deps.carriers.get(tenant.carrierPrefix) };
}
