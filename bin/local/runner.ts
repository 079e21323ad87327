/**
 * Composes the local stack (DESIGN.md section 7): emulators, tables and queues from functions/contracts,
 * the pollers and the Scheduler stand-in feeding the event handlers, and the HTTP API. The handlers
 * are the production modules, pointed at the emulators through the SDK's endpoint variables.
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import type { IncomingMessage, ServerResponse } from "node:http";
import { dirname, join } from "node:path";
import { EVENT_FUNCTIONS } from "../../functions/contracts/event-functions.ts";
import {
  DEFAULT_SMTP_PORT,
  INBOUND_MAIL_BUCKET_ENV,
  INBOUND_MAIL_FUNCTION,
} from "../../functions/contracts/inbound-mail.ts";
import { parseRateLimitTiers } from "../../functions/contracts/rate-limit-tiers.ts";
import { QUEUES, TABLES } from "../../functions/contracts/resources.ts";
import { DEFAULT_SERVICE_NAME } from "../../functions/contracts/routes.ts";
import { RATE_LIMIT_DEFAULTS, SETTINGS_ENV } from "../../functions/contracts/settings.ts";
import { APP_PATH } from "../../functions/contracts/web-app.ts";
import {
  DEV_AUDIENCE,
  DEV_ISSUER,
  devAccessTokenSigner,
  devJwks,
  signDevAccessToken,
} from "../dev-issuer.ts";
import {
  createQueues,
  createTables,
  freePort,
  LOCAL_CREDENTIALS,
  LOCAL_REGION,
  startDynamoDbLocal,
  startSes,
  startSqs,
} from "./emulators.ts";
import { sendProblem, startHttpApi } from "./http-api.ts";
import { LOCAL_INBOUND_MAIL_BUCKET, startS3StandIn, startSmtpListener } from "./inbound-mail.ts";
import { loadHandler } from "./lambda.ts";
import { startQueuePoller } from "./queue-poller.ts";
import { startSchedulerStandIn } from "./scheduler-standin.ts";
import { type Poller, startStreamPoller } from "./stream-poller.ts";
import { createTokenEndpoint, TOKEN_PATH } from "./token-endpoint.ts";
import { createWebApp } from "./web-app.ts";

export interface LocalStackOptions {
  port: number;
  dynamoPort: number;
  sqsPort: number;
  sesPort: number;
  schedulerPort: number;
  /** The SMTP listener of Cargo-IMP by e-mail (SMTP_PORT, default 2525; 0 picks a free port). */
  smtpPort: number;
  serviceName: string;
  /**
   * LOCAL_CLOCK_AT: the instant the fake clock starts at (ISO), e.g. the receipt time of published
   * messages that carry a year, so they are read as received when they were sent. Unset: real time.
   */
  clockAt?: string;
  log: (line: string) => void;
}

export interface LocalStack {
  apiUrl: string;
  /** The local OAuth 2.0 token endpoint (client credentials), `<apiUrl>/oauth2/token`. */
  tokenUrl: string;
  /** The support client created at start (the first support credential); also in SUPPORT_CLIENT_FILE. */
  supportClient: { clientId: string; clientSecret: string };
  dynamoEndpoint: string;
  sqsEndpoint: string;
  sesEndpoint: string;
  schedulerEndpoint: string;
  /** The local SMTP listener carriers mail Cargo-IMP to (`smtp://127.0.0.1:<port>`). */
  smtpUrl: string;
  /** The web app, `<apiUrl>/app/`. */
  appUrl: string;
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Where the runner writes the support client it creates at start (`.local/` is git-ignored). */
export const SUPPORT_CLIENT_FILE = join(import.meta.dirname, "..", "..", ".local", "support-client.json");
/** The support tenant the runner bootstraps. */
export const LOCAL_SUPPORT_SUBJECT = "support";

/** Lambda ARN of a local event function, as the Scheduler adapter and stand-in name it. */
const localFunctionArn = (handler: string) =>
  `arn:aws:lambda:${LOCAL_REGION}:000000000000:function:${handler}`;

const portOr = async (value: number) => (value === 0 ? freePort() : value);

/** One step of the fake clock: at most a year (timed checks run days ahead, never decades). */
export const MAX_CLOCK_STEP_MS = 366 * 24 * 3600_000;
/** How far the fake clock may run ahead of the real one in total: ten years. */
export const MAX_CLOCK_OFFSET_MS = 10 * 366 * 24 * 3600_000;

/**
 * Reads `{"advanceMs": n}` of `POST /__local/clock`: a whole number of milliseconds from 0 to
 * MAX_CLOCK_STEP_MS that keeps the clock within MAX_CLOCK_OFFSET_MS of real time (1e308 would leave
 * every Date invalid).
 */
export function clockAdvance(
  body: string,
  currentOffsetMs: number,
): { ok: true; advanceMs: number } | { ok: false; message: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body || "{}");
  } catch {
    return { ok: false, message: 'the body must be a JSON object {"advanceMs": <milliseconds>}' };
  }
  const advanceMs =
    typeof parsed === "object" && parsed !== null && Object.hasOwn(parsed, "advanceMs")
      ? (parsed as { advanceMs: unknown }).advanceMs
      : undefined;
  if (typeof advanceMs !== "number" || !Number.isInteger(advanceMs) || advanceMs < 0)
    return { ok: false, message: "advanceMs must be a whole, non-negative number of milliseconds" };
  if (advanceMs > MAX_CLOCK_STEP_MS)
    return { ok: false, message: `advanceMs must be at most ${MAX_CLOCK_STEP_MS} (366 days)` };
  if (currentOffsetMs + advanceMs > MAX_CLOCK_OFFSET_MS)
    return { ok: false, message: "advanceMs would move the clock more than ten years ahead" };
  return { ok: true, advanceMs };
}

function clockStart(raw: string): string {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?Z$/.test(raw) || Number.isNaN(Date.parse(raw)))
    throw new Error(`LOCAL_CLOCK_AT must be an ISO UTC instant (2023-04-01T14:45:00Z), got ${raw}`);
  return raw;
}

export function optionsFromEnv(env: NodeJS.ProcessEnv = process.env): LocalStackOptions {
  const number = (name: string, fallback: number) => {
    const raw = env[name];
    if (raw === undefined || raw === "") return fallback;
    const parsed = Number(raw);
    if (!Number.isInteger(parsed) || parsed < 0 || parsed > 65535)
      throw new Error(`${name} must be a port number, got ${raw}`);
    return parsed;
  };
  // Malformed tiers fail the runner at start, as they fail a deployed container (the values checked
  // against the defaults here; the routes apply RATE_LIMIT_PER_* themselves).
  parseRateLimitTiers(
    env[SETTINGS_ENV.rateLimitTiers],
    env[SETTINGS_ENV.rateLimitCallerTiers],
    { ...RATE_LIMIT_DEFAULTS, perSecond: RATE_LIMIT_DEFAULTS.ratePerSecond },
    { tiers: SETTINGS_ENV.rateLimitTiers, callerTiers: SETTINGS_ENV.rateLimitCallerTiers },
  );
  return {
    port: number("PORT", 3000),
    dynamoPort: number("DYNAMODB_PORT", 8000),
    sqsPort: number("SQS_PORT", 4566),
    sesPort: number("SES_PORT", 8005),
    schedulerPort: number("SCHEDULER_PORT", 8006),
    smtpPort: number("SMTP_PORT", DEFAULT_SMTP_PORT),
    serviceName: env.SERVICE_NAME || DEFAULT_SERVICE_NAME,
    ...(env.LOCAL_CLOCK_AT ? { clockAt: clockStart(env.LOCAL_CLOCK_AT) } : {}),
    log: (line) => process.stdout.write(`${line}\n`),
  };
}

export async function startLocalStack(options: LocalStackOptions): Promise<LocalStack> {
  const stops: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => undefined);
  };
  const reportError = (where: string) => (error: unknown) =>
    options.log(`[${where}] ${error instanceof Error ? error.message : String(error)}`);

  try {
    const [dynamoPort, sqsPort, sesPort, schedulerPort] = await Promise.all([
      portOr(options.dynamoPort),
      portOr(options.sqsPort),
      portOr(options.sesPort),
      portOr(options.schedulerPort),
    ]);
    // DynamoDB Local's JVM is the slow part: start everything else while it boots.
    const [dynamo, sqsEmulator, sesEmulator] = await Promise.all([
      startDynamoDbLocal(dynamoPort).then((started) => {
        stops.push(started.stop);
        return started;
      }),
      startSqs(sqsPort).then((started) => {
        stops.push(started.stop);
        return started;
      }),
      startSes(sesPort).then((started) => {
        stops.push(started.stop);
        return started;
      }),
    ]);
    const [tableEnv, queueEnv] = await Promise.all([
      createTables(dynamo.endpoint),
      createQueues(sqsEmulator.endpoint),
    ]);

    const schedulerStandIn = await startSchedulerStandIn({
      port: schedulerPort,
      sqsEndpoint: sqsEmulator.endpoint,
      resolveTarget: (arn) => {
        const fn = EVENT_FUNCTIONS.find((candidate) => localFunctionArn(candidate.handler) === arn);
        return fn ? () => loadHandler(fn.folder, fn.handler) : null;
      },
      onError: reportError("scheduler"),
    });
    stops.push(schedulerStandIn.stop);
    // Where the local SMTP listener stores received mail, as SES's receipt rule stores it in S3.
    const s3StandIn = await startS3StandIn(0);
    stops.push(s3StandIn.stop);

    const jwks = devJwks();
    const env: Record<string, string> = {
      AWS_REGION: LOCAL_REGION,
      AWS_ACCESS_KEY_ID: LOCAL_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_CREDENTIALS.secretAccessKey,
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_ENDPOINT_URL_DYNAMODB_STREAMS: dynamo.endpoint,
      AWS_ENDPOINT_URL_SQS: sqsEmulator.endpoint,
      AWS_ENDPOINT_URL_SES: sesEmulator.endpoint,
      AWS_ENDPOINT_URL_SCHEDULER: schedulerStandIn.endpoint,
      AWS_ENDPOINT_URL_S3: s3StandIn.endpoint,
      [INBOUND_MAIL_BUCKET_ENV]: LOCAL_INBOUND_MAIL_BUCKET,
      ...tableEnv,
      ...queueEnv,
      JWT_ISSUER: DEV_ISSUER,
      JWT_AUDIENCE: DEV_AUDIENCE,
      JWKS_JSON: JSON.stringify(jwks),
      SERVICE_NAME: options.serviceName,
      DEPLOYMENT_MODE: "local",
      SCHEDULE_GROUP_NAME: "default",
      SCHEDULER_ROLE_ARN: "arn:aws:iam::000000000000:role/local-scheduler",
      POWERTOOLS_LOG_LEVEL: process.env.POWERTOOLS_LOG_LEVEL ?? "WARN",
      POWERTOOLS_IDEMPOTENCY_DISABLED: "false",
      POWERTOOLS_METRICS_DISABLED: "true",
      // No X-Ray daemon here: the Tracer records nothing and sends nothing (it also stays off outside
      // Lambda, but says so explicitly in case a shell exports AWS_EXECUTION_ENV).
      POWERTOOLS_TRACE_ENABLED: "false",
    };
    for (const fn of EVENT_FUNCTIONS)
      env[`${fn.handler.toUpperCase().replace(/-/g, "_")}_FUNCTION_ARN`] = localFunctionArn(fn.handler);
    // Handlers read their configuration on first use (functions/adapters/config.ts); the environment is
    // set before any handler loads so every module sees one consistent environment.
    Object.assign(process.env, env);

    for (const fn of EVENT_FUNCTIONS) {
      const source = fn.source;
      let poller: Poller | null = null;
      if (source.kind === "stream") {
        poller = await startStreamPoller({
          endpoint: dynamo.endpoint,
          tableName: tableEnv[TABLES[source.table].envVar] ?? "",
          functionName: fn.handler,
          handler: () => loadHandler(fn.folder, fn.handler),
          batchSize: source.batchSize,
          filter: source.filter,
          onError: reportError(fn.handler),
        });
      } else if (source.kind === "queue") {
        // The main queue, and the slow lane feeding the same function, each with its own concurrency.
        const lanes = [
          { queue: source.queue, batchSize: source.batchSize, concurrency: source.maxConcurrency },
          ...(source.slowLane ? [{ ...source.slowLane, concurrency: source.slowLane.maxConcurrency }] : []),
        ];
        for (const lane of lanes) {
          const lanePoller = await startQueuePoller({
            endpoint: sqsEmulator.endpoint,
            queueUrl: queueEnv[QUEUES[lane.queue].envVar] ?? "",
            functionName: fn.handler,
            handler: () => loadHandler(fn.folder, fn.handler),
            batchSize: lane.batchSize,
            // Locally a few loops stand for Lambda's scaling (the machine is small).
            ...(lane.concurrency ? { concurrency: Math.min(lane.concurrency, 4) } : {}),
            retryVisibilitySeconds: 1,
            onError: reportError(fn.handler),
          });
          stops.push(lanePoller.stop);
        }
      }
      if (poller) stops.push(poller.stop);
    }

    // Cargo-IMP by e-mail: the SMTP listener feeds inbound-carrier-mail the SES event shape.
    const smtp = await startSmtpListener({
      port: await portOr(options.smtpPort),
      s3: s3StandIn,
      handler: () => loadHandler(INBOUND_MAIL_FUNCTION.folder, INBOUND_MAIL_FUNCTION.handler),
      onError: reportError(INBOUND_MAIL_FUNCTION.handler),
    });
    stops.push(smtp.stop);

    const { advanceClock, nowIso, nowMs } = await import("../../functions/adapters/clock.ts");
    if (options.clockAt !== undefined) advanceClock(Date.parse(options.clockAt) - Date.now());
    const localControl = async (request: IncomingMessage, response: ServerResponse, body: string) => {
      const url = new URL(request.url ?? "/", "http://localhost");
      if (url.pathname === "/__local/clock" && request.method === "POST") {
        // Fake clock for tests: move time forward, then fire whatever became due.
        const advance = clockAdvance(body, nowMs() - Date.now());
        if (!advance.ok) {
          sendProblem(response, 400, "bad-request", advance.message, {}, [
            { field: "advanceMs", message: advance.message },
          ]);
          return true;
        }
        advanceClock(advance.advanceMs);
        const fired = await schedulerStandIn.tick();
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify({ now: nowIso(), fired }));
        return true;
      }
      if (url.pathname === "/__local/schedules" && request.method === "GET") {
        response.writeHead(200, { "content-type": "application/json" });
        response.end(JSON.stringify(schedulerStandIn.schedules()));
        return true;
      }
      return false;
    };

    // The first support credential: a support tenant and one client of it, in the Tenants table the
    // token endpoint reads (DynamoDB Local is in memory, so a new one at every start).
    const [
      { dynamoTenantRepository },
      { hashClientSecret, localClientRegistry, verifyClientSecret },
      { bootstrapSupportClient },
    ] = await Promise.all([
      import("../../functions/adapters/tenant-repository.ts"),
      import("../../functions/adapters/local-client-registry.ts"),
      import("../../functions/core/use-cases/shared/support-bootstrap.ts"),
    ]);
    const tenants = dynamoTenantRepository();
    const decoyHash = hashClientSecret(randomUUID());
    const support = await bootstrapSupportClient(
      { tenants, registry: localClientRegistry() },
      { subject: LOCAL_SUPPORT_SUBJECT, now: nowIso() },
    );
    const tokenEndpoint = createTokenEndpoint(() => ({
      tenants,
      secrets: {
        // An unknown client (or one without a local hash) is checked against a decoy hash, so it
        // costs the same scrypt time as a wrong secret and the delay tells nothing.
        matches: async (client, secret) =>
          verifyClientSecret(client?.secretHash ?? decoyHash, secret) && client?.secretHash != null,
      },
      signer: devAccessTokenSigner,
    }));

    // The web app (built into memory now) and its dev sign-in, on the API's origin as in AWS.
    const webApp = createWebApp({
      signIn: { tenants, sign: signDevAccessToken },
    });
    const api = await startHttpApi({
      port: options.port,
      serviceName: options.serviceName,
      jwks,
      localControl,
      tokenEndpoint,
      webApp: webApp.handle,
    });
    stops.push(api.stop);
    // Share links and e-mail links point at this runner's app unless told otherwise.
    process.env[SETTINGS_ENV.appBaseUrl] ||= api.url;
    env[SETTINGS_ENV.appBaseUrl] = process.env[SETTINGS_ENV.appBaseUrl] ?? api.url;
    const tokenUrl = `${api.url}${TOKEN_PATH}`;
    const supportClient = { clientId: support.clientId, clientSecret: support.clientSecret };
    mkdirSync(dirname(SUPPORT_CLIENT_FILE), { recursive: true });
    writeFileSync(
      SUPPORT_CLIENT_FILE,
      `${JSON.stringify({ ...supportClient, tokenUrl, apiUrl: api.url }, null, 2)}\n`,
      {
        mode: 0o600,
      },
    );

    return {
      apiUrl: api.url,
      tokenUrl,
      supportClient,
      dynamoEndpoint: dynamo.endpoint,
      sqsEndpoint: sqsEmulator.endpoint,
      sesEndpoint: sesEmulator.endpoint,
      schedulerEndpoint: schedulerStandIn.endpoint,
      smtpUrl: `smtp://127.0.0.1:${smtp.port}`,
      appUrl: `${api.url}${APP_PATH}`,
      env,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}
