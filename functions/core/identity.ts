/**
 * Who is calling, from verified token claims (DESIGN.md section 1). Pure: no JWT library here; the
 * authorizer verifies the signature and hands over these claims.
 */

export type Role = "forwarder" | "carrier" | "support";

export interface ForwarderIdentity {
  role: "forwarder";
  forwarderId: string;
  agentCode: string;
  agentCass: string;
  /** Branch station (3 letters) or null when the token has none. */
  agentStation: string | null;
}

export interface CarrierIdentity {
  role: "carrier";
  carrierPrefix: string;
}

export interface SupportIdentity {
  role: "support";
  subject: string;
}

export type Identity = ForwarderIdentity | CarrierIdentity | SupportIdentity;

/** Claims as strings (API Gateway authorizer context only carries strings, numbers and booleans). */
export type ClaimMap = Record<string, unknown>;

const isString = (value: unknown): value is string => typeof value === "string";
const nonEmpty = (value: unknown): string | null => (isString(value) && value.length > 0 ? value : null);

/**
 * Reads an identity out of claims, or says which claim is wrong. Used by the authorizer (to refuse a
 * token) and by the handlers (to rebuild the identity from the authorizer context).
 */
export function identityFromClaims(
  claims: ClaimMap,
): { ok: true; identity: Identity } | { ok: false; reason: string } {
  const role = claims.role;
  if (role === "forwarder") {
    const { forwarder_id, agent_code, agent_cass, agent_station } = claims;
    if (!isString(forwarder_id) || forwarder_id.length === 0 || forwarder_id.length > 64)
      return { ok: false, reason: "forwarder_id claim missing or invalid" };
    if (!isString(agent_code) || !/^\d{7}$/.test(agent_code))
      return { ok: false, reason: "agent_code claim must be 7 digits" };
    if (!isString(agent_cass) || !/^\d{4}$/.test(agent_cass))
      return { ok: false, reason: "agent_cass claim must be 4 digits" };
    const station = isString(agent_station) && /^[A-Z]{3}$/.test(agent_station) ? agent_station : null;
    return {
      ok: true,
      identity: {
        role,
        forwarderId: forwarder_id,
        agentCode: agent_code,
        agentCass: agent_cass,
        agentStation: station,
      },
    };
  }
  if (role === "carrier") {
    const prefix = claims.carrier_prefix;
    if (!isString(prefix) || !/^\d{3}$/.test(prefix))
      return { ok: false, reason: "carrier_prefix claim must be 3 digits" };
    return { ok: true, identity: { role, carrierPrefix: prefix } };
  }
  if (role === "support") {
    // A client-credentials token names its support tenant in support_subject (its sub is the client
    // id); the dev shortcut and external issuers name the person in sub.
    const subject = nonEmpty(claims.support_subject) ?? nonEmpty(claims.sub) ?? "support";
    return { ok: true, identity: { role, subject } };
  }
  return { ok: false, reason: "role claim must be forwarder, carrier or support" };
}

/** Flattens an identity back to authorizer-context claims (strings only). */
export function identityToContext(identity: Identity): Record<string, string> {
  switch (identity.role) {
    case "forwarder":
      return {
        role: identity.role,
        forwarder_id: identity.forwarderId,
        agent_code: identity.agentCode,
        agent_cass: identity.agentCass,
        agent_station: identity.agentStation ?? "",
      };
    case "carrier":
      return { role: identity.role, carrier_prefix: identity.carrierPrefix };
    case "support":
      return { role: identity.role, sub: identity.subject };
  }
}
