/**
 * Customer endpoints of Url-channel rules (spec Authentication 2; DESIGN.md section 7): support
 * registers the address and one header; the GUID it gets back is what forwarders put in NotifyTo.
 */
import * as v from "valibot";
import { GUID_PATTERN, maskSecret, TargetUrlSchema } from "./common.ts";

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

export const CustomerEndpointRequestSchema = v.strictObject({
  ForwarderIdentifier: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, "must not be empty"),
    v.maxLength(64, "at most 64 characters"),
  ),
  Url: TargetUrlSchema,
  HeaderName: v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(100, "at most 100 characters"),
    v.regex(HEADER_NAME_PATTERN, "must be an HTTP header name (letters, digits and !#$%&'*+.^_`|~-)"),
    v.check(
      (name) => !(RESERVED_HEADER_NAMES as readonly string[]).includes(name.toLowerCase()),
      "names a header the service sets itself",
    ),
  ),
  HeaderValue: v.pipe(
    v.string(),
    v.maxLength(4096, "at most 4096 characters"),
    v.regex(HEADER_VALUE_PATTERN, "must be non-empty printable ASCII without line breaks"),
  ),
});
export type CustomerEndpointRequest = v.InferOutput<typeof CustomerEndpointRequestSchema>;

export interface CustomerEndpoint {
  /** GUID issued to the customer; used as NotifyTo of Url rules. */
  id: string;
  forwarderId: string;
  url: string;
  headerName: string;
  headerValue: string;
  createdAt: string;
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

export interface CustomerEndpointResponse {
  Id: string;
  ForwarderIdentifier: string;
  Url: string;
  HeaderName: string;
  HeaderValue: string;
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
