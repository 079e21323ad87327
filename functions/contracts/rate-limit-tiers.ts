/**
 * Named rate-limit tiers (StarTracking-style: each caller is held to its tier's per-second bucket and
 * minute/hour/day windows). Both sides read the same settings: the CDK app validates context
 * `rateLimitTiers` / `rateLimitCallerTiers` at synth and sets `RATE_LIMIT_TIERS` /
 * `RATE_LIMIT_CALLER_TIERS` on every route, the functions parse those once per container
 * (functions/core/rate-limit.ts). Plain and dependency-free, like the rest of functions/contracts.
 *
 * - Tiers: `{ "<tier>": { "perSecond"?, "burst"?, "perMinute"?, "perHour"?, "perDay"? } }`, whole
 *   numbers of at least 1; a missing member takes the deployment's default (RATE_LIMIT_PER_*).
 * - Caller tiers: `{ "<caller key>": "<tier>" }`, caller keys as the limiter forms them
 *   (`forwarder:<id>`, `carrier:<prefix>`, `support:<subject>`). A caller named nowhere is in the tier
 *   `default` (the deployment's defaults); naming a tier that is not defined is an error.
 *
 * Errors are thrown as `Error` whose message names the source (env variable or context key), the tier
 * or caller and the member, so a wrong deployment fails at synth or at the container's start.
 */

export interface RateLimitTierSettings {
  perSecond: number;
  burst: number;
  perMinute: number;
  perHour: number;
  perDay: number;
}

export const TIER_MEMBERS = ["perSecond", "burst", "perMinute", "perHour", "perDay"] as const;

/** The tier of every caller not named in the caller tiers: the deployment's own limits. */
export const DEFAULT_TIER = "default";

/** Tier names appear in problem details and logs: short, printable, no spaces. */
const TIER_NAME = /^[A-Za-z0-9_.-]{1,64}$/;
const CALLER_KEY = /^(forwarder|carrier|support):\S+$/;

export interface RateLimitTierTable {
  /** Every named tier with each member filled in (the defaults where the tier left one out). */
  tiers: Record<string, RateLimitTierSettings>;
  /** Caller key -> tier name (always a key of `tiers` or DEFAULT_TIER). */
  callerTiers: Record<string, string>;
  /** The tiers with only the members given (what the stack hands on, so defaults stay in one place). */
  given: Record<string, Partial<RateLimitTierSettings>>;
}

/** A JSON string (env, `-c`), an object (cdk.json), or nothing (undefined / ""). */
function jsonObject(value: unknown, source: string): Record<string, unknown> {
  if (value === undefined || value === null || value === "") return {};
  let parsed: unknown = value;
  if (typeof value === "string") {
    try {
      parsed = JSON.parse(value);
    } catch {
      throw new Error(`${source} must be a JSON object, got ${JSON.stringify(value)}`);
    }
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))
    throw new Error(`${source} must be a JSON object, got ${JSON.stringify(value)}`);
  return parsed as Record<string, unknown>;
}

function tierSettings(
  name: string,
  value: unknown,
  source: string,
  defaults: RateLimitTierSettings,
): RateLimitTierSettings {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error(`${source}: tier ${name} must be an object of limits, got ${JSON.stringify(value)}`);
  const members = value as Record<string, unknown>;
  const settings = { ...defaults };
  for (const [member, limit] of Object.entries(members)) {
    if (!(TIER_MEMBERS as readonly string[]).includes(member))
      throw new Error(
        `${source}: tier ${name} has unknown member ${member} (allowed: ${TIER_MEMBERS.join(", ")})`,
      );
    if (typeof limit !== "number" || !Number.isSafeInteger(limit) || limit < 1)
      throw new Error(
        `${source}: tier ${name} member ${member} must be a whole number of at least 1, got ${JSON.stringify(limit)}`,
      );
    settings[member as keyof RateLimitTierSettings] = limit;
  }
  return settings;
}

/**
 * Parses and validates the tiers and the callers' tiers; `sources` name them in error messages (the
 * env variables, or the CDK context keys).
 */
export function parseRateLimitTiers(
  tiersValue: unknown,
  callerTiersValue: unknown,
  defaults: RateLimitTierSettings,
  sources: { tiers: string; callerTiers: string },
): RateLimitTierTable {
  const tiers: Record<string, RateLimitTierSettings> = {};
  const given: Record<string, Partial<RateLimitTierSettings>> = {};
  for (const [name, value] of Object.entries(jsonObject(tiersValue, sources.tiers))) {
    if (!TIER_NAME.test(name))
      throw new Error(
        `${sources.tiers}: tier name ${JSON.stringify(name)} must be 1-64 letters, digits, ".", "_" or "-"`,
      );
    if (name === DEFAULT_TIER)
      throw new Error(
        `${sources.tiers}: tier name ${DEFAULT_TIER} is reserved for the deployment's own limits (RATE_LIMIT_PER_*)`,
      );
    const settings = tierSettings(name, value, sources.tiers, defaults);
    define(tiers, name, settings);
    define(
      given,
      name,
      Object.fromEntries(
        TIER_MEMBERS.filter((member) => Object.hasOwn(value as object, member)).map((member) => [
          member,
          settings[member],
        ]),
      ),
    );
  }
  const callerTiers: Record<string, string> = {};
  for (const [caller, tier] of Object.entries(jsonObject(callerTiersValue, sources.callerTiers))) {
    if (!CALLER_KEY.test(caller))
      throw new Error(
        `${sources.callerTiers}: caller ${JSON.stringify(caller)} must be forwarder:<id>, carrier:<prefix> or support:<subject>`,
      );
    if (typeof tier !== "string" || (tier !== DEFAULT_TIER && !Object.hasOwn(tiers, tier)))
      throw new Error(
        `${sources.callerTiers}: caller ${caller} names unknown tier ${JSON.stringify(tier)} (defined in ${sources.tiers}: ${Object.keys(tiers).join(", ") || "none"})`,
      );
    define(callerTiers, caller, tier);
  }
  return { tiers, callerTiers, given };
}

/** An own property even for a name like `__proto__` (plain assignment would set the prototype). */
function define<T>(target: Record<string, T>, key: string, value: T): void {
  Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
}
