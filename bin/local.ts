/**
 * `npm start`: the whole stack on this machine (DESIGN.md section 7). Ctrl-C (SIGINT) or SIGTERM stops
 * every emulator and child process before exiting.
 */
import { JavaMissingError } from "./local/emulators.ts";
import { optionsFromEnv, startLocalStack } from "./local/runner.ts";

// Lambda runs Node 22; this laptop-only runner may be on Node 20, which the SDK warns about at length.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= "true";
const started = Date.now();
const options = optionsFromEnv();
let stack: Awaited<ReturnType<typeof startLocalStack>> | undefined;
let stopping = false;

async function shutdown(signal: string): Promise<void> {
  if (stopping) return;
  stopping = true;
  process.stdout.write(`\n${signal}: stopping the local stack...\n`);
  await stack?.stop();
  process.exit(0);
}
process.on("SIGINT", () => void shutdown("SIGINT"));
process.on("SIGTERM", () => void shutdown("SIGTERM"));

try {
  stack = await startLocalStack(options);
} catch (error) {
  process.stderr.write(
    `${error instanceof JavaMissingError ? error.message : error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`,
  );
  process.exit(1);
}
if (stopping) await stack.stop();

const seconds = ((Date.now() - started) / 1000).toFixed(1);
process.stdout.write(
  [
    `Route Map Tracker local stack ready in ${seconds} s`,
    `  API              ${stack.apiUrl}   (OpenAPI: ${stack.apiUrl}/openapi.json)`,
    `  also under       ${stack.apiUrl}/${options.serviceName}/ffw/...`,
    `  App              ${stack.appUrl}   (the forwarders' web app; local sign-in lists the onboarded forwarders)`,
    `  SES mail viewer  ${stack.sesEndpoint}`,
    `  DynamoDB Local   ${stack.dynamoEndpoint}`,
    `  SQS (fauxqs)     ${stack.sqsEndpoint}`,
    `  Scheduler        ${stack.schedulerEndpoint}`,
    `  SMTP             ${stack.smtpUrl}   (Cargo-IMP by e-mail from carriers' InboundSenders)`,
    `  Token URL        ${stack.tokenUrl}   (OAuth 2.0 client credentials)`,
    `  Support client   ${stack.supportClient.clientId} ${stack.supportClient.clientSecret}   (also in .local/support-client.json)`,
    `Get a token:  curl -s -u ${stack.supportClient.clientId}:${stack.supportClient.clientSecret} -d grant_type=client_credentials ${stack.tokenUrl}`,
    "  (dev shortcut: npm run --silent token -- forwarder ACMECARGO --agent 1234567 --cass 0001)",
    `Call it:      curl -H "Authorization: Bearer $TOKEN" ${stack.apiUrl}/ffw/service/routemap/02012345675`,
    "Ctrl-C stops everything.",
    "",
  ].join("\n"),
);
