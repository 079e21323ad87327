/**
 * The functions' one configuration module (functions/adapters/config.ts): each accessor reads only its
 * own variables, applies the defaults of functions/contracts/settings.ts, and fails on a missing or
 * malformed variable with an error naming it; nothing is read before an accessor is called, and what
 * was read is kept.
 */
import { describe, expect, it } from "vitest";
import { ConfigurationError, configFrom, type Environment } from "../../functions/adapters/config.ts";
import {
  DEFAULT_JWT_MAX_LIFETIME_SECONDS,
  DEFAULT_SENDER_ADDRESS,
  DEFAULT_SERVICE_NAME,
  DEFAULT_STATUS_REQUEST_WINDOW_SECONDS,
  RATE_LIMIT_DEFAULTS,
} from "../../functions/contracts/settings.ts";

/** The ConfigurationError `read` throws (fails the test when it throws none or another error). */
function failureOf(read: () => unknown): ConfigurationError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigurationError);
    return error as ConfigurationError;
  }
  throw new Error("expected a ConfigurationError");
}

const SCHEDULER = {
  SCHEDULER_ROLE_ARN: "arn:aws:iam::000000000000:role/scheduler",
  DUE_CHECKS_QUEUE_ARN: "arn:aws:sqs:eu-west-1:123456789012:DueChecks",
  DUE_CHECKS_QUEUE_URL: "https://sqs.eu-west-1.amazonaws.com/123456789012/DueChecks",
  DELIVERY_QUEUE_URL: "https://sqs.eu-west-1.amazonaws.com/123456789012/DeliveryJobs",
};
const TOKENS = { JWT_ISSUER: "https://issuer.example/pool/", JWT_AUDIENCE: "route-map-tracker" };

describe("defaults, when a variable is unset (or empty)", () => {
  it("are those of functions/contracts/settings.ts", () => {
    const config = configFrom({ SERVICE_NAME: "", RATE_LIMIT_BURST: " " });
    expect(config.serviceName()).toBe(DEFAULT_SERVICE_NAME);
    expect(DEFAULT_SERVICE_NAME).toBe("api.routemap");
    expect(config.deploymentMode()).toBe("production");
    expect(config.statusRequestWindowSeconds()).toBe(DEFAULT_STATUS_REQUEST_WINDOW_SECONDS);
    expect(DEFAULT_STATUS_REQUEST_WINDOW_SECONDS).toBe(900);
    expect(config.subscriptionLimits()).toEqual({ rules: 500, webhooks: 50 });
    expect(config.emailSender()).toEqual({ senderAddress: DEFAULT_SENDER_ADDRESS });
    expect(DEFAULT_SENDER_ADDRESS).toBe("notifications@example.com");
    expect(config.appBaseUrl()).toBeUndefined();
    expect(config.optionalTable("rateLimits")).toBeUndefined();
    const tiers = config.rateLimitTiers();
    expect(tiers.defaults).toEqual(RATE_LIMIT_DEFAULTS);
    expect(tiers.defaults).toEqual({
      ratePerSecond: 50,
      burst: 100,
      perMinute: 1500,
      perHour: 30000,
      perDay: 300000,
    });
    expect([...tiers.named.keys(), ...tiers.callers.keys()]).toEqual([]);
    expect(config.capacityMetrics()).toBe(true);
    expect(config.s3ForcePathStyle()).toBe(false);
  });

  it("fill what a section leaves out: the verifier's lifetime and keys, the schedulers' group and ARNs", () => {
    const config = configFrom({ ...TOKENS, ...SCHEDULER, AWS_REGION: "us-east-1" });
    expect(config.tokenVerifier()).toEqual({
      issuer: TOKENS.JWT_ISSUER,
      audience: TOKENS.JWT_AUDIENCE,
      jwksUri: "https://issuer.example/pool/.well-known/jwks.json",
      jwks: null,
      maxLifetimeSeconds: DEFAULT_JWT_MAX_LIFETIME_SECONDS,
    });
    expect(DEFAULT_JWT_MAX_LIFETIME_SECONDS).toBe(86_400);
    expect(config.checkScheduler()).toEqual({
      groupName: "default",
      roleArn: SCHEDULER.SCHEDULER_ROLE_ARN,
      queueArn: SCHEDULER.DUE_CHECKS_QUEUE_ARN,
      queueUrl: SCHEDULER.DUE_CHECKS_QUEUE_URL,
      deadLetterArn: null,
      local: false,
    });
    // The delivery queue's ARN from its URL where the runner sets only the URL (the region from the host).
    expect(config.retryScheduler()).toEqual({
      groupName: "default",
      roleArn: SCHEDULER.SCHEDULER_ROLE_ARN,
      queueArn: "arn:aws:sqs:eu-west-1:123456789012:DeliveryJobs",
      local: false,
    });
  });

  it("give way to what is set", () => {
    const config = configFrom({
      ...TOKENS,
      SERVICE_NAME: "tracking",
      DEPLOYMENT_MODE: "local",
      JWT_MAX_LIFETIME_SECONDS: "600",
      JWKS_JSON: '{"keys":[{"kty":"RSA","kid":"k1"}]}',
      JWKS_URI: "https://keys.example/jwks.json",
      RATE_LIMIT_PER_SECOND: "0.5",
      RATE_LIMIT_PER_HOUR: "600.9",
      SENDER_ADDRESS: "alerts@tracker.example",
      SES_CONFIGURATION_SET: "tracker",
      APP_BASE_URL: " https://d111.cloudfront.example// ",
      STATUS_REQUEST_WINDOW_SECONDS: "60",
      MAX_WEBHOOKS_PER_FORWARDER: "5",
      IDEMPOTENCY_TABLE: "Idempotency-1",
      DELIVERY_RETRY_SCALE: "0.001",
      DELIVERY_TIMEOUT_MS: "1500",
      ROUTE_MAPS_TABLE: "RouteMaps-1",
      CAPACITY_METRICS: "off",
      AWS_ENDPOINT_URL_S3: "http://127.0.0.1:9000",
    });
    expect(config.serviceName()).toBe("tracking");
    expect(config.deploymentMode()).toBe("local");
    expect(config.tokenVerifier()).toMatchObject({
      jwksUri: "https://keys.example/jwks.json",
      jwks: { keys: [{ kty: "RSA", kid: "k1" }] },
      maxLifetimeSeconds: 600,
    });
    expect(config.rateLimitTiers().defaults).toMatchObject({ ratePerSecond: 0.5, perHour: 600 });
    expect(config.emailSender()).toEqual({
      senderAddress: "alerts@tracker.example",
      configurationSet: "tracker",
    });
    expect(config.appBaseUrl()).toBe("https://d111.cloudfront.example");
    expect(config.statusRequestWindowSeconds()).toBe(60);
    expect(config.subscriptionLimits()).toEqual({ rules: 500, webhooks: 5 });
    expect(config.deliverJob()).toEqual({
      idempotencyTable: "Idempotency-1",
      appBaseUrl: "https://d111.cloudfront.example",
      retryScale: 0.001,
      timeoutMs: 1500,
    });
    expect(config.table("routeMaps")).toBe("RouteMaps-1");
    expect(config.tableIds()).toEqual(
      new Map([
        ["RouteMaps-1", "RouteMaps"],
        ["Idempotency-1", "Idempotency"],
      ]),
    );
    expect(config.capacityMetrics()).toBe(false);
    expect(config.s3ForcePathStyle()).toBe(true);
  });
});

describe("a missing variable", () => {
  it.each<[string, (config: ReturnType<typeof configFrom>) => unknown, string]>([
    ["a table", (config) => config.table("deliveries"), "DELIVERIES_TABLE"],
    ["a queue", (config) => config.queueUrl("dueChecks"), "DUE_CHECKS_QUEUE_URL"],
    ["the token issuer", (config) => config.tokenVerifier(), "JWT_ISSUER"],
    ["the user pool", (config) => config.userPoolId(), "USER_POOL_ID"],
    ["the inbound mail bucket", (config) => config.inboundMailBucket(), "INBOUND_MAIL_BUCKET"],
    ["the idempotency table", (config) => config.deliverJob(), "IDEMPOTENCY_TABLE"],
    ["the scheduler's role", (config) => config.checkScheduler(), "SCHEDULER_ROLE_ARN"],
  ])("fails naming it: %s", (_, read, variable) => {
    const failure = failureOf(() => read(configFrom({})));
    expect(failure.variable).toBe(variable);
    expect(failure.message).toBe(`${variable} is not set`);
  });

  it("names the first one a section misses, and says why the audience is required", () => {
    expect(failureOf(() => configFrom({ JWT_ISSUER: TOKENS.JWT_ISSUER }).tokenVerifier()).message).toBe(
      "JWT_AUDIENCE is not set: every token must name its audience",
    );
    const { DUE_CHECKS_QUEUE_ARN: _arn, ...withoutArn } = SCHEDULER;
    expect(failureOf(() => configFrom(withoutArn).checkScheduler()).variable).toBe("DUE_CHECKS_QUEUE_ARN");
    expect(failureOf(() => configFrom({ SCHEDULER_ROLE_ARN: "arn" }).retryScheduler()).variable).toBe(
      "DELIVERY_QUEUE_URL",
    );
  });
});

describe("a malformed value", () => {
  it.each([
    ["RATE_LIMIT_BURST", "many", (c: Config) => c.rateLimitTiers(), "must be a positive number"],
    ["RATE_LIMIT_PER_DAY", "-5", (c: Config) => c.rateLimitTiers(), "must be a positive number"],
    [
      "JWT_MAX_LIFETIME_SECONDS",
      "1.5",
      (c: Config) => c.tokenVerifier(),
      "must be a whole number of at least 1",
    ],
    ["JWKS_JSON", "{keys", (c: Config) => c.tokenVerifier(), "must be a JWKS document (JSON)"],
    ["JWKS_JSON", '{"kid":"k1"}', (c: Config) => c.tokenVerifier(), "must be a JWKS document"],
    ["DEPLOYMENT_MODE", "staging", (c: Config) => c.deploymentMode(), 'must be "production" or "local"'],
    ["APP_BASE_URL", "d111.cloudfront.example", (c: Config) => c.appBaseUrl(), "must be a URL"],
    [
      "STATUS_REQUEST_WINDOW_SECONDS",
      "0",
      (c: Config) => c.statusRequestWindowSeconds(),
      "must be a whole number of at least 1",
    ],
    ["MAX_RULES_PER_FORWARDER", "ten", (c: Config) => c.subscriptionLimits(), "must be a whole number"],
    ["SHARE_LINKS_PER_AWB", "0", (c: Config) => c.shareLinkLimits(), "must be a whole number of at least 1"],
    [
      "SHARE_LINKS_PER_FORWARDER_PER_DAY",
      "many",
      (c: Config) => c.shareLinkLimits(),
      "must be a whole number of at least 1",
    ],
    ["DELIVERY_RETRY_SCALE", "fast", (c: Config) => c.deliverJob(), "must be a positive number"],
    ["DELIVERY_TIMEOUT_MS", "-1", (c: Config) => c.deliverJob(), "must be a positive number"],
  ])("%s=%s fails naming the variable and the value", (variable, value, read, problem) => {
    const env = { ...TOKENS, IDEMPOTENCY_TABLE: "Idempotency-1", [variable]: value };
    const failure = failureOf(() => read(configFrom(env)));
    expect(failure.variable).toBe(variable);
    expect(failure.message).toContain(`${variable} ${problem}`);
    expect(failure.message).toContain(`got ${JSON.stringify(value)}`);
  });

  it("share link limits: 20 active per AWB and 200 a day unless set", () => {
    expect(configFrom({}).shareLinkLimits()).toEqual({ activePerAwb: 20, perDay: 200 });
    expect(
      configFrom({ SHARE_LINKS_PER_AWB: "5", SHARE_LINKS_PER_FORWARDER_PER_DAY: "50" }).shareLinkLimits(),
    ).toEqual({ activePerAwb: 5, perDay: 50 });
  });

  it("in the tiers: the message names the variable, the tier and the member", () => {
    expect(() => configFrom({ RATE_LIMIT_TIERS: '{"gold":{"burst":0}}' }).rateLimitTiers()).toThrow(
      "RATE_LIMIT_TIERS: tier gold member burst must be a whole number of at least 1",
    );
    expect(() =>
      configFrom({ RATE_LIMIT_CALLER_TIERS: '{"forwarder:ACMECARGO":"gold"}' }).rateLimitTiers(),
    ).toThrow(/RATE_LIMIT_CALLER_TIERS: caller forwarder:ACMECARGO names unknown tier "gold"/);
  });
});

type Config = ReturnType<typeof configFrom>;

describe("each function reads only what it asks for", () => {
  it("a section is not refused for another section's missing or malformed variable", () => {
    const config = configFrom({ RATE_LIMIT_BURST: "many", DEPLOYMENT_MODE: "local" });
    expect(config.serviceName()).toBe(DEFAULT_SERVICE_NAME);
    expect(config.subscriptionLimits()).toEqual({ rules: 500, webhooks: 50 });
    expect(() => config.rateLimitTiers()).toThrow("RATE_LIMIT_BURST");
    expect(() => config.tokenVerifier()).toThrow("JWT_ISSUER");
  });

  it("reads the variables of the section asked for, and nothing before", () => {
    const read: string[] = [];
    const env = new Proxy({ ...TOKENS } as Environment, {
      get(target, name) {
        if (typeof name === "string") read.push(name);
        return Reflect.get(target, name);
      },
    });
    let opened = 0;
    const config = configFrom(() => {
      opened += 1;
      return env;
    });
    expect(opened).toBe(0);
    config.serviceName();
    expect(read).toEqual(["SERVICE_NAME"]);
    read.length = 0;
    config.tokenVerifier();
    expect(read.sort()).toEqual(
      ["JWKS_JSON", "JWKS_URI", "JWT_AUDIENCE", "JWT_ISSUER", "JWT_MAX_LIFETIME_SECONDS"].sort(),
    );
  });
});

describe("read once", () => {
  it("keeps what it read, and reads again after a failure", () => {
    const env: Record<string, string> = { STATUS_REQUEST_WINDOW_SECONDS: "x" };
    const config = configFrom(env);
    expect(() => config.statusRequestWindowSeconds()).toThrow("STATUS_REQUEST_WINDOW_SECONDS");
    env.STATUS_REQUEST_WINDOW_SECONDS = "120";
    expect(config.statusRequestWindowSeconds()).toBe(120);
    env.STATUS_REQUEST_WINDOW_SECONDS = "30";
    expect(config.statusRequestWindowSeconds()).toBe(120);
    // Per table: each is its own.
    env.TENANTS_TABLE = "Tenants-1";
    env.DELIVERIES_TABLE = "Deliveries-1";
    expect([config.table("tenants"), config.table("deliveries")]).toEqual(["Tenants-1", "Deliveries-1"]);
  });
});
