/**
 * Customer endpoints of Url-channel rules (spec Authentication 2; DESIGN.md section 7): support
 * registers the address and one header; the GUID it gets back is what forwarders put in NotifyTo.
 */
import * as v from "valibot";
import type { CustomerEndpointResponse } from "../../contracts/api-bodies.ts";
import { GUID_PATTERN, isMaskedSecret, maskSecret, resolveSentSecret, TargetUrlSchema } from "./common.ts";
import type { NotificationRule } from "./rules.ts";

/** RFC 9110 token characters. */
const HEADER_NAME_PATTERN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Visible ASCII, space and tab: no CR/LF, so the value cannot inject another header. */
const HEADER_VALUE_PATTERN = /^[\t\x20-\x7e]+$/;

/**
 * Headers the sender itself owns (framing, routing, signing): a customer header may not override
 * them. Authorization stays allowed (a common choice for an API key).
 */
const RESERVED_HEADER_NAMES = [
  "host",
  "content-length",
  "content-type",
  "transfer-encoding",
  "connection",
  "keep-alive",
  "upgrade",
  "te",
  "trailer",
  "expect",
  "proxy-authorization",
  "webhook-id",
  "webhook-timestamp",
  "webhook-signature",
] as const;

const HeaderNameSchema = v.pipe(
  v.string(),
  v.trim(),
  v.maxLength(100, "at most 100 characters"),
  v.regex(HEADER_NAME_PATTERN, "must be an HTTP header name (letters, digits and !#$%&'*+.^_`|~-)"),
  v.check(
    (name) => !(RESERVED_HEADER_NAMES as readonly string[]).includes(name.toLowerCase()),
    "names a header the service sets itself",
  ),
);

export const CustomerEndpointRequestSchema = v.object({
  ForwarderIdentifier: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, "must not be empty"),
    v.maxLength(64, "at most 64 characters"),
  ),
  Url: TargetUrlSchema,
  HeaderName: HeaderNameSchema,
  HeaderValue: v.pipe(
    v.string(),
    v.maxLength(4096, "at most 4096 characters"),
    v.regex(HEADER_VALUE_PATTERN, "must be non-empty printable ASCII without line breaks"),
  ),
});
export type CustomerEndpointRequest = v.InferOutput<typeof CustomerEndpointRequestSchema>;

/**
 * PUT of an endpoint (support): the new Url, header name and value. The value may be the masked form
 * of the stored one (a client echoing a GET body keeps it) unless the Url changes. The endpoint stays
 * with its forwarder: `Id` and `ForwarderIdentifier` are response members and ignored (tolerant reader).
 */
export const CustomerEndpointUpdateSchema = v.object({
  Url: TargetUrlSchema,
  HeaderName: HeaderNameSchema,
  HeaderValue: v.pipe(
    v.string(),
    v.maxLength(4096, "at most 4096 characters"),
    v.check(
      (value) => isMaskedSecret(value) || HEADER_VALUE_PATTERN.test(value),
      "must be non-empty printable ASCII without line breaks (or the masked value to keep it)",
    ),
  ),
});
export type CustomerEndpointUpdate = v.InferOutput<typeof CustomerEndpointUpdateSchema>;

export interface CustomerEndpoint {
  /** GUID issued to the customer; used as NotifyTo of Url rules. */
  id: string;
  forwarderId: string;
  url: string;
  headerName: string;
  headerValue: string;
  createdAt: string;
  /** Last PUT (absent until the first one). */
  updatedAt?: string;
}

/**
 * The endpoint after a PUT, or the field errors the stored state reveals (a masked HeaderValue that is
 * not the stored one's mask, or kept while the Url changes: the secret never follows a new address).
 */
export function updatedCustomerEndpoint(
  stored: CustomerEndpoint,
  update: CustomerEndpointUpdate,
  now: string,
):
  | { ok: true; endpoint: CustomerEndpoint }
  | { ok: false; errors: Array<{ field: string; message: string }> } {
  const value = resolveSentSecret(update.HeaderValue, stored.headerValue, update.Url !== stored.url);
  if (!value.ok) return { ok: false, errors: [{ field: "HeaderValue", message: value.message }] };
  if (value.value === null) return { ok: false, errors: [{ field: "HeaderValue", message: "is required" }] };
  return {
    ok: true,
    endpoint: {
      ...stored,
      url: update.Url,
      headerName: update.HeaderName,
      headerValue: value.value,
      updatedAt: now,
    },
  };
}

/** The caller's enabled Url rules that send to this endpoint: what deleting it would break. */
export function rulesUsingEndpoint(
  rules: readonly NotificationRule[],
  endpointId: string,
): NotificationRule[] {
  const id = endpointId.toLowerCase();
  return rules.filter((rule) => rule.enabled && rule.channel === "Url" && rule.notifyTo.toLowerCase() === id);
}

/** `id` comes from the caller (crypto.randomUUID in the use case) so this stays deterministic. */
export function customerEndpointFromRequest(
  request: CustomerEndpointRequest,
  meta: { id: string; now: string },
): CustomerEndpoint {
  if (!GUID_PATTERN.test(meta.id)) throw new Error("customer endpoint id must be a GUID");
  return {
    id: meta.id.toLowerCase(),
    forwarderId: request.ForwarderIdentifier,
    url: request.Url,
    headerName: request.HeaderName,
    headerValue: request.HeaderValue,
    createdAt: meta.now,
  };
}

/**
 * The registered-endpoint check of Url rules: NotifyTo must name an endpoint support registered for
 * this very forwarder (another forwarder's GUID is as good as unknown).
 */
export function isEndpointUsableBy(
  endpoint: CustomerEndpoint | null | undefined,
  forwarderId: string,
): boolean {
  return endpoint !== null && endpoint !== undefined && endpoint.forwarderId === forwarderId;
}

export function customerEndpointToApi(
  endpoint: CustomerEndpoint,
  options: { revealSecrets: boolean },
): CustomerEndpointResponse {
  return {
    Id: endpoint.id,
    ForwarderIdentifier: endpoint.forwarderId,
    Url: endpoint.url,
    HeaderName: endpoint.headerName,
    HeaderValue: options.revealSecrets ? endpoint.headerValue : maskSecret(endpoint.headerValue),
  };
}
