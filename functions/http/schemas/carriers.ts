/** Support's carrier settings: the PUT body, the answer, and the planning offsets within them. */
import * as v from "valibot";
import { MAX_INBOUND_SENDERS } from "../../core/inbound-mail.ts";
import { TargetUrlSchema } from "../../core/notifications/common.ts";
import type { RawMessage } from "../../core/ports/raw-messages.ts";
import { plainObject } from "./plain-object.ts";

export const PrefixSchema = v.pipe(v.string(), v.regex(/^\d{3}$/, "must be 3 digits"));

const OffsetMinutes = v.pipe(
  v.number(),
  v.integer("must be whole minutes"),
  v.minValue(0, "must be 0 or more minutes"),
  v.maxValue(7 * 24 * 60, "at most 10080 minutes (7 days)"),
);

/** Planning offsets in minutes (DESIGN.md section 4); an absent one keeps the default. */
export const PlanningOffsetsSchema = plainObject(
  v.pipe(
    v.object({
      FwbBeforeFirstStd: v.optional(OffsetMinutes),
      LatBeforeFirstStd: v.optional(OffsetMinutes),
      RcsBeforeFirstStd: v.optional(OffsetMinutes),
      DepAfterStd: v.optional(OffsetMinutes),
      ArrAfterSta: v.optional(OffsetMinutes),
      ArrAfterStaRoadFeeder: v.optional(OffsetMinutes),
      RcfAfterSta: v.optional(OffsetMinutes),
      RcfAfterStaRoadFeeder: v.optional(OffsetMinutes),
      NfdAfterLastSta: v.optional(OffsetMinutes),
      AwdAfterLastSta: v.optional(OffsetMinutes),
      DlvAfterLastSta: v.optional(OffsetMinutes),
    }),
    v.description(
      "Minutes before the first STD (Fwb/Lat/Rcs) or after STD/STA; defaults 365, 360, 120, 60, 60, 40, 300, 45, 360, 480, 4320.",
    ),
  ),
);

function compiles(pattern: string): boolean {
  try {
    new RegExp(`^(?:${pattern})$`);
    return true;
  } catch {
    return false;
  }
}

export const RoadFeederRuleSchema = v.pipe(
  v.object({
    CarrierCode: v.optional(
      v.nullable(
        v.pipe(v.string(), v.regex(/^(?:[A-Z]{2}|[A-Z]\d|\d[A-Z])$/, "must be a 2-character airline code")),
      ),
    ),
    Pattern: v.pipe(
      v.string(),
      v.minLength(1, "must not be empty"),
      v.maxLength(40, "at most 40 characters"),
      v.check(compiles, "must be a valid regular expression"),
    ),
  }),
  v.description(
    'A flight number (whole, e.g. "9\\d{3}") that is a road-feeder truck; CarrierCode null = any.',
  ),
);

export const CarrierPlanningSchema = plainObject(
  v.object({
    Offsets: v.optional(PlanningOffsetsSchema),
    RoadFeederFlightNumbers: v.optional(
      v.pipe(v.array(RoadFeederRuleSchema), v.maxLength(20, "at most 20 rules")),
    ),
  }),
);

/**
 * Addresses the carrier's gateway mails Cargo-IMP from: lower-cased, each once, each registered for
 * one carrier only (409 when another carrier has it).
 */
export const InboundSendersSchema = v.pipe(
  v.array(
    v.pipe(
      v.string(),
      v.trim(),
      v.toLowerCase(),
      v.maxLength(254, "at most 254 characters"),
      v.email("must be an e-mail address"),
    ),
  ),
  v.maxLength(MAX_INBOUND_SENDERS, `at most ${MAX_INBOUND_SENDERS} addresses`),
  v.check((list) => new Set(list).size === list.length, "must not list an address twice"),
  v.description(
    "Addresses whose e-mail to the inbound mail address carries this carrier's Cargo-IMP messages (lower-cased; each belongs to one carrier).",
  ),
);

/**
 * How the carrier receives status requests: Url (POSTed, signed), Email (SES) or Pull
 * (GET /carrier/requests); Url is required for Url, Email for Email.
 */
export const StatusRequestsSchema = v.pipe(
  plainObject(
    v.object({
      Channel: v.picklist(["Url", "Email", "Pull"], 'must be "Url", "Email" or "Pull"'),
      Url: v.optional(TargetUrlSchema),
      Email: v.optional(
        v.pipe(
          v.string(),
          v.trim(),
          v.maxLength(254, "at most 254 characters"),
          v.email("must be an e-mail address"),
        ),
      ),
      Format: v.picklist(["cargo-imp", "json"], 'must be "cargo-imp" or "json"'),
    }),
  ),
  v.forward(
    v.check((it) => it.Channel !== "Url" || it.Url !== undefined, "is required for Channel Url"),
    ["Url"],
  ),
  v.forward(
    v.check((it) => it.Channel !== "Email" || it.Email !== undefined, "is required for Channel Email"),
    ["Email"],
  ),
);

/**
 * The carrier's ONE Record server: POST /onerecord/notifications fetches the announced
 * LogisticsEvents from IRIs under ServerUrl only, with Token as bearer. Token is masked in answers;
 * the masked value sent back keeps it (unless ServerUrl changes), null removes it.
 */
export const OneRecordSettingsSchema = v.pipe(
  plainObject(
    v.object({
      ServerUrl: TargetUrlSchema,
      Token: v.optional(
        v.nullable(
          v.pipe(
            v.string(),
            v.minLength(1, "must not be empty"),
            v.maxLength(4096, "at most 4096 characters"),
          ),
        ),
      ),
    }),
  ),
  v.description(
    "The carrier's ONE Record server (publisher) and the bearer token to read its LogisticsEvents.",
  ),
);

export const CarrierSettingsSchema = v.object({
  Name: v.pipe(
    v.string(),
    v.trim(),
    v.minLength(1, "must not be empty"),
    v.maxLength(100, "at most 100 characters"),
  ),
  QualityProgram: v.boolean(),
  Xtd: v.boolean(),
  /** Optional per-carrier planning configuration. */
  Planning: v.optional(CarrierPlanningSchema),
  /** Optional: the addresses the carrier mails Cargo-IMP from. */
  InboundSenders: v.optional(InboundSendersSchema),
  /** Optional: the carrier's status-request channel. */
  StatusRequests: v.optional(StatusRequestsSchema),
  /** Optional: the carrier's ONE Record server; null or absent = none. */
  OneRecord: v.optional(v.nullable(OneRecordSettingsSchema)),
});
export type CarrierSettings = v.InferOutput<typeof CarrierSettingsSchema>;

export const CarrierSchema = v.object({
  AirlinePrefix: PrefixSchema,
  Name: v.string(),
  QualityProgram: v.boolean(),
  Xtd: v.boolean(),
  Planning: v.optional(CarrierPlanningSchema),
  InboundSenders: v.optional(v.array(v.string())),
  StatusRequests: v.optional(
    v.object({
      Channel: v.string(),
      Url: v.optional(v.string()),
      Email: v.optional(v.string()),
      Format: v.string(),
    }),
  ),
  OneRecord: v.optional(v.object({ ServerUrl: v.string(), Token: v.nullable(v.string()) })),
  SigningSecret: v.optional(
    v.pipe(
      v.string(),
      v.description(
        "The Standard Webhooks secret status requests to Url are signed with: only in the PUT answer that generated it",
      ),
    ),
  ),
});

/** GET /support/carriers/{prefix}/messages/{id}: a raw message as a receipt kept it. */
export const CarrierMessageSchema = v.object({
  ReceiptId: v.pipe(v.string(), v.description("As the route map's history names it (Provenance.ReceiptId).")),
  Carrier: PrefixSchema,
  Channel: v.pipe(
    v.picklist(["Api", "Email", "OneRecord"]),
    v.description("Posted to the API, received by e-mail, or fetched after a ONE Record notification."),
  ),
  ReceivedAt: v.pipe(v.string(), v.description("ISO UTC.")),
  ContentType: v.string(),
  FetchedFrom: v.pipe(
    v.nullable(v.string()),
    v.description(
      "The ONE Record document's IRI it was fetched from; null for a message sent to the service.",
    ),
  ),
  Body: v.pipe(
    v.string(),
    v.description("The message exactly as received (for e-mail: the text that was read)."),
  ),
});

const CHANNEL_NAMES = { api: "Api", email: "Email", onerecord: "OneRecord" } as const;

export function carrierMessageBody(message: RawMessage): v.InferOutput<typeof CarrierMessageSchema> {
  return {
    ReceiptId: message.receiptId,
    Carrier: message.carrierPrefix,
    Channel: CHANNEL_NAMES[message.channel],
    ReceivedAt: message.receivedAt,
    ContentType: message.contentType,
    FetchedFrom: message.fetchedFrom ?? null,
    Body: message.body,
  };
}
