/** Ports of tenants (forwarders, carriers, support) and their machine clients. */
import type { Tenant, TenantClient, TenantKind, TenantRef } from "../tenants/tenants.ts";

export interface TenantPage<T> {
  items: T[];
  /** Opaque cursor of the next page, or null on the last one. */
  next: string | null;
}

/** The tenant table. */
export interface TenantRepository {
  getTenant(ref: TenantRef): Promise<Tenant | null>;
  /** Creates the tenant; throws TenantExistsError (core/errors.ts) when it already exists. */
  createTenant(tenant: Tenant): Promise<void>;
  /** Replaces an existing tenant record (enable/disable, profile changes). */
  updateTenant(tenant: Tenant): Promise<void>;
  listTenants(kind: TenantKind, page: { limit: number; cursor: string | null }): Promise<TenantPage<Tenant>>;
  /** Deletes the tenant and every client record of it; returns the deleted clients' ids. */
  deleteTenant(ref: TenantRef): Promise<string[]>;

  getClient(clientId: string): Promise<TenantClient | null>;
  /** Stores a new client record (by client id, and listed under its tenant). */
  createClient(client: TenantClient): Promise<void>;
  updateClient(client: TenantClient): Promise<void>;
  listClients(ref: TenantRef): Promise<TenantClient[]>;
  deleteClient(clientId: string): Promise<void>;
}

/** A newly issued credential: the secret is shown once and never stored in clear. */
export interface IssuedClientCredential {
  clientId: string;
  clientSecret: string;
  /** What the tenant repository keeps to verify the secret later (local registry), else null. */
  secretHash: string | null;
}

/**
 * Where machine clients are registered: the Cognito user pool (one app client per tenant client,
 * client-credentials flow, the role's scope) in AWS; locally, generated ids and scrypt-hashed secrets.
 */
export interface ClientRegistry {
  register(input: { tenant: TenantRef; scope: string; name: string | null }): Promise<IssuedClientCredential>;
  /** Removes the client from the registry (a later token request with it fails); idempotent. */
  deregister(clientId: string): Promise<void>;
}

/** A person who signs in to the web app for a forwarder (a Cognito user in AWS). */
export interface ForwarderUser {
  /** The identity provider's stable id of the user (Cognito's `sub`). */
  userId: string;
  email: string;
  forwarderId: string;
  createdAt: string;
}

/**
 * Where people sign in: Cognito in AWS (the user gets Cognito's invitation with a temporary password),
 * generated ids locally (no mail). The users' forwarder links are kept by ForwarderUserRepository.
 */
export interface ForwarderUserDirectory {
  /** Creates the sign-in; throws ForwarderUserExistsError (core/errors.ts) for a known e-mail. */
  createUser(input: { email: string }): Promise<{ userId: string }>;
  /** Removes the sign-in (a later sign-in fails); idempotent. */
  deleteUser(userId: string): Promise<void>;
}

/** Which forwarder each user signs in for: link records in the tenant table. */
export interface ForwarderUserRepository {
  getUser(userId: string): Promise<ForwarderUser | null>;
  /** Stores the link; throws ForwarderUserExistsError when the user id or e-mail is already linked. */
  createUser(user: ForwarderUser): Promise<void>;
  /** The forwarder's users, oldest first. */
  listUsers(forwarderId: string): Promise<ForwarderUser[]>;
  /** Removes the link; idempotent. */
  deleteUser(user: ForwarderUser): Promise<void>;
}
