/**
 * Invokes handler modules the way the Lambda runtime does: one module instance, (event, context), with
 * the faults a test asked for through the environment (faults.ts).
 */
import { randomUUID } from "node:crypto";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Context } from "aws-lambda";
import { withLocalFaults } from "./faults.ts";

const PROJECT_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

// biome-ignore lint/suspicious/noExplicitAny: handlers take different event types; each caller knows its own.
export type LambdaHandler = (event: any, context: Context) => Promise<unknown>;

const loaded = new Map<string, Promise<LambdaHandler>>();

/** Loads `functions/handlers/<folder>/<name>.ts` once, like a warm Lambda container. */
export function loadHandler(folder: string, name: string): Promise<LambdaHandler> {
  const key = `${folder}/${name}`;
  let handler = loaded.get(key);
  if (!handler) {
    const url = pathToFileURL(join(PROJECT_ROOT, "functions", "handlers", folder, `${name}.ts`)).href;
    handler = import(url).then((module: { handler?: LambdaHandler }) => {
      if (typeof module.handler !== "function") throw new Error(`${key} exports no handler`);
      return withLocalFaults(name, module.handler);
    });
    loaded.set(key, handler);
  }
  return handler;
}

export function lambdaContext(functionName: string, timeoutMs = 30_000): Context {
  const deadline = Date.now() + timeoutMs;
  const requestId = randomUUID();
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: "$LATEST",
    invokedFunctionArn: `arn:aws:lambda:us-east-1:000000000000:function:${functionName}`,
    memoryLimitInMB: "512",
    awsRequestId: requestId,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: "local",
    getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}
