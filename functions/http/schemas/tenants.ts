/**
 * Support's onboarding API: the request bodies (forwarder, client), the cursor query of the tenant
 * lists, and the answers (PascalCase, like the rest of the API). A client's secret appears only in the
 * answer that created it.
 */
import * as v from "valibot";
import { carrierToApi } from "../../core/carriers.ts";
import type { TenantPage } from "../../core/ports/tenants.ts";
import {
  FORWARDER_IDENTIFIER_PATTERN,
  FORWARDER_IDENTIFIER_RULE,
  type ForwarderTenant,
} from "../../core/tenants/tenants.ts";
import type { CarrierView, ClientView, CreatedClient } from "../../core/use-cases/shared/tenants.ts";
import { CarrierPlanningSchema, PrefixSchema } from "./carriers.ts";
import { plainObject } from "./plain-object.ts";

/**
 * A new forwarder's id follows the event payload's published pattern (receivers validate it). Tenants
 * onboarded before keep their id: the path parameter of /support/forwarders/{id} still takes them.
 */
const ForwarderIdSchema = v.pipe(
  v.string(),
  v.regex(FORWARDER_IDENTIFIER_PATTERN, FORWARDER_IDENTIFIER_RULE),
);

/** Free text, one line: how people name the forwarder (shown on the route maps it shares). */
const ForwarderNameSchema = v.pipe(
  v.string(),
  v.trim(),
  v.minLength(1, "must not be empty (or leave it out)"),
  v.maxLength(100, "at most 100 characters"),
  v.regex(/^[^\p{Cc}]*$/u, "must not contain control characters"),
);

export const ForwarderRequestSchema = v.object({
  ForwarderId: ForwarderIdSchema,
  Name: v.optional(v.nullable(ForwarderNameSchema), null),
  AgentCode: v.pipe(v.string(), v.regex(/^\d{7}$/, "must be 7 digits")),
  AgentCass: v.pipe(v.string(), v.regex(/^\d{4}$/, "must be 4 digits")),
  AgentStation: v.optional(
    v.nullable(v.pipe(v.string(), v.regex(/^[A-Z]{3}$/, "must be 3 capital letters (a station code)"))),
    null,
  ),
  ContactEmail: v.pipe(
    v.string(),
    v.trim(),
    v.maxLength(254, "at most 254 characters"),
    v.email("must be an e-mail address"),
  ),
});

/** Every member optional: `plainObject` refuses an array (which valibot's object would take for `{}`). */
export const ClientRequestSchema = plainObject(
  v.object({
    Name: v.optional(
      v.nullable(
        v.pipe(
          v.string(),
          v.trim(),
          v.minLength(1, "must not be empty (or leave it out)"),
          v.maxLength(100, "at most 100 characters"),
          v.regex(/^[^\p{Cc}]*$/u, "must not contain control characters"),
        ),
      ),
      null,
    ),
  }),
);

/** `?Limit=` (1-100, default 100) and `&Cursor=` (the NextCursor of the previous page). */
export const CursorQuerySchema = v.object({
  Limit: v.optional(
    v.pipe(
      v.string(),
      v.regex(/^\d{1,3}$/, "Limit must be a whole number"),
      v.transform(Number),
      v.minValue(1, "Limit must be at least 1"),
      v.maxValue(100, "Limit must be at most 100"),
    ),
    "100",
  ),
  Cursor: v.optional(
    v.pipe(v.string(), v.regex(/^[A-Za-z0-9_-]{2,400}$/, "must be the NextCursor of a previous page")),
  ),
});

/** The cursor query as the use cases take it. */
export const TenantPageRequestSchema = v.pipe(
  CursorQuerySchema,
  v.transform((query) => ({ limit: query.Limit, cursor: query.Cursor ?? null })),
);

export const ForwarderResponseSchema = v.object({
  ForwarderId: v.string(),
  Name: v.optional(v.pipe(v.string(), v.description("Present when support gave one."))),
  AgentCode: v.string(),
  AgentCass: v.string(),
  AgentStation: v.nullable(v.string()),
  ContactEmail: v.string(),
  Enabled: v.pipe(v.boolean(), v.description("A disabled forwarder's clients get no token.")),
  CreatedAt: v.string(),
  UpdatedAt: v.string(),
});

export const ClientResponseSchema = v.object({
  ClientId: v.string(),
  Name: v.nullable(v.string()),
  Enabled: v.pipe(v.boolean(), v.description("A disabled client gets no token.")),
  CreatedAt: v.string(),
});

export const CreatedClientResponseSchema = v.object({
  ClientId: v.string(),
  ClientSecret: v.pipe(v.string(), v.description("Shown only in this answer; never again.")),
  Name: v.nullable(v.string()),
  CreatedAt: v.string(),
});

export const CarrierTenantResponseSchema = v.object({
  AirlinePrefix: PrefixSchema,
  Name: v.nullable(v.string()),
  QualityProgram: v.nullable(v.boolean()),
  Xtd: v.nullable(v.boolean()),
  Planning: v.optional(CarrierPlanningSchema),
  InboundSenders: v.optional(v.array(v.string())),
  Enabled: v.pipe(v.boolean(), v.description("A disabled carrier's clients get no token.")),
});

export function cursorPagedSchema<T extends v.GenericSchema>(item: T) {
  return v.object({
    Items: v.array(item),
    NextCursor: v.pipe(v.nullable(v.string()), v.description("?Cursor= of the next page; null on the last.")),
  });
}

export const DeletedForwarderResponseSchema = v.object({
  ...ForwarderResponseSchema.entries,
  DeletedClients: v.pipe(v.array(v.string()), v.description("Ids of the clients removed with it")),
  DeletedUsers: v.pipe(v.array(v.string()), v.description("Ids of the people (sign-ins) removed with it")),
});

export const DeletedCarrierResponseSchema = v.object({
  AirlinePrefix: PrefixSchema,
  DeletedClients: v.pipe(v.array(v.string()), v.description("Ids of the clients removed with it")),
});

export const forwarderBody = (forwarder: ForwarderTenant): v.InferOutput<typeof ForwarderResponseSchema> => ({
  ForwarderId: forwarder.forwarderId,
  ...(forwarder.name ? { Name: forwarder.name } : {}),
  AgentCode: forwarder.agentCode,
  AgentCass: forwarder.agentCass,
  AgentStation: forwarder.agentStation,
  ContactEmail: forwarder.contactEmail,
  Enabled: forwarder.enabled,
  CreatedAt: forwarder.createdAt,
  UpdatedAt: forwarder.updatedAt,
});

export const clientBody = (client: ClientView): v.InferOutput<typeof ClientResponseSchema> => ({
  ClientId: client.clientId,
  Name: client.name,
  Enabled: client.enabled,
  CreatedAt: client.createdAt,
});

export const createdClientBody = (
  client: CreatedClient,
): v.InferOutput<typeof CreatedClientResponseSchema> => ({
  ClientId: client.clientId,
  ClientSecret: client.clientSecret,
  Name: client.name,
  CreatedAt: client.createdAt,
});

export function carrierTenantBody(carrier: CarrierView) {
  const settings = carrier.settings
    ? carrierToApi(carrier.settings)
    : { AirlinePrefix: carrier.tenant.carrierPrefix, Name: null, QualityProgram: null, Xtd: null };
  return { ...settings, Enabled: carrier.tenant.enabled };
}

export function cursorPagedBody<T, R>(page: TenantPage<T>, map: (item: T) => R) {
  return { Items: page.items.map(map), NextCursor: page.next };
}
