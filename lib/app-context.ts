/**
 * Deploy-time settings from CDK context (`-c name=value` or cdk.json "context"): serviceName,
 * senderAddress (required unless demo), demo (default false), jwtIssuer, jwtAudience,
 * jwtMaxLifetimeSeconds, retainData (default true; false with demo), rateLimitPerSecond,
 * rateLimitBurst, rateLimitPerMinute, rateLimitPerHour, rateLimitPerDay, rateLimitTiers,
 * rateLimitCallerTiers (JSON strings or objects, functions/contracts/rate-limit-tiers.ts),
 * cognitoDomainPrefix, webAppCallbackUrls (comma-separated, or a JSON array in cdk.json),
 * inboundMailRecipient (Cargo-IMP by e-mail: the address of the SES receipt rule; none = no rule),
 * statusRequestWindowSeconds (sendsme for one AWB within it ask the carrier once; default 900).
 * `-c` values arrive as strings, cdk.json values as JSON types; both are accepted.
 */
import type { Node } from "constructs";
import { parseRateLimitTiers } from "../functions/contracts/rate-limit-tiers.ts";
import {
  DEFAULT_JWT_MAX_LIFETIME_SECONDS,
  DEFAULT_STATUS_REQUEST_WINDOW_SECONDS,
} from "../functions/contracts/settings.ts";
import {
  DEFAULT_RATE_LIMIT,
  type RateLimitSettings,
  type RateLimitTiersSettings,
  type RouteMapTrackerStackProps,
} from "./route-map-tracker-stack.ts";

/** true/false from `-c name=true|false` or a cdk.json boolean; undefined when not given. */
function flag(node: Node, name: string): boolean | undefined {
  const value: unknown = node.tryGetContext(name);
  if (value === undefined || value === "") return undefined;
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  throw new Error(`context ${name} must be true or false, got ${JSON.stringify(value)}`);
}

function text(node: Node, name: string): string | undefined {
  const value: unknown = node.tryGetContext(name);
  return typeof value === "string" && value !== "" ? value : undefined;
}

/** A positive number, at least `min` when given (a burst under 1 would refuse every request). */
function positiveNumber(node: Node, name: string, fallback: number, min = 0): number {
  const value: unknown = node.tryGetContext(name);
  if (value === undefined || value === "") return fallback;
  const parsed = typeof value === "number" ? value : typeof value === "string" ? Number(value) : Number.NaN;
  if (!Number.isFinite(parsed) || parsed <= 0 || parsed < min) {
    const bound = min > 0 ? `at least ${min}` : "positive";
    throw new Error(`context ${name} must be a ${bound} number, got ${JSON.stringify(value)}`);
  }
  return parsed;
}

/** A whole number of requests, at least 1. */
function wholeNumber(node: Node, name: string, fallback: number): number {
  const value = positiveNumber(node, name, fallback, 1);
  if (!Number.isInteger(value))
    throw new Error(`context ${name} must be a whole number, got ${JSON.stringify(value)}`);
  return value;
}

/** Callback URLs of the web app's hosted login: https, or http on localhost (development). */
function callbackUrls(node: Node, name: string): string[] | undefined {
  const value: unknown = node.tryGetContext(name);
  if (value === undefined || value === "") return undefined;
  const urls = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [value];
  return urls.map((url) => {
    const text = typeof url === "string" ? url.trim() : "";
    if (!/^(https:\/\/[^\s,]+|http:\/\/localhost(:\d+)?(\/[^\s,]*)?)$/.test(text))
      throw new Error(
        `context ${name} must list https URLs (or http://localhost), got ${JSON.stringify(url)}`,
      );
    return text;
  });
}

/** Tiers from context, validated now so a wrong tier fails the synth naming the context key. */
function rateLimitTiers(node: Node, rateLimit: RateLimitSettings): RateLimitTiersSettings {
  const table = parseRateLimitTiers(
    node.tryGetContext("rateLimitTiers"),
    node.tryGetContext("rateLimitCallerTiers"),
    rateLimit,
    { tiers: "context rateLimitTiers", callerTiers: "context rateLimitCallerTiers" },
  );
  return { tiers: table.given, callerTiers: table.callerTiers };
}

export function stackPropsFromContext(node: Node): RouteMapTrackerStackProps {
  const retainData = flag(node, "retainData");
  const demo = flag(node, "demo");
  const rateLimit: RateLimitSettings = {
    perSecond: positiveNumber(node, "rateLimitPerSecond", DEFAULT_RATE_LIMIT.perSecond),
    burst: positiveNumber(node, "rateLimitBurst", DEFAULT_RATE_LIMIT.burst, 1),
    perMinute: wholeNumber(node, "rateLimitPerMinute", DEFAULT_RATE_LIMIT.perMinute),
    perHour: wholeNumber(node, "rateLimitPerHour", DEFAULT_RATE_LIMIT.perHour),
    perDay: wholeNumber(node, "rateLimitPerDay", DEFAULT_RATE_LIMIT.perDay),
  };
  return {
    serviceName: text(node, "serviceName"),
    senderAddress: text(node, "senderAddress"),
    jwtIssuer: text(node, "jwtIssuer"),
    jwtAudience: text(node, "jwtAudience"),
    cognitoDomainPrefix: text(node, "cognitoDomainPrefix"),
    inboundMailRecipient: text(node, "inboundMailRecipient"),
    webAppCallbackUrls: callbackUrls(node, "webAppCallbackUrls"),
    jwtMaxLifetimeSeconds: wholeNumber(node, "jwtMaxLifetimeSeconds", DEFAULT_JWT_MAX_LIFETIME_SECONDS),
    statusRequestWindowSeconds: wholeNumber(
      node,
      "statusRequestWindowSeconds",
      DEFAULT_STATUS_REQUEST_WINDOW_SECONDS,
    ),
    // Absent: the stack's default (retained, unless a demo stack).
    ...(retainData === undefined ? {} : { retainData }),
    ...(demo === undefined ? {} : { demo }),
    rateLimit,
    rateLimitTiers: rateLimitTiers(node, rateLimit),
  };
}
