/**
 * The first support credential in AWS: creates the support tenant (or enables it again) in
 * the Tenants table and registers one machine client of it in the stack's Cognito user pool, then
 * prints the client id and secret (shown once, never stored) and the curl that gets a token.
 *   npm run bootstrap-support -- --user-pool-id <UserPoolId> --tenants-table <table> --region <region> [--subject ops]
 * The stack's output BootstrapSupportCommand is this line, filled in. Runs with the caller's AWS
 * credentials (cognito-idp:CreateUserPoolClient and DescribeUserPool on the pool, DynamoDB on the table).
 * Locally the runner does the same at start and prints the credential in its banner.
 */
import { resolve } from "node:path";
import { parseArgs } from "node:util";
import { DescribeUserPoolCommand } from "@aws-sdk/client-cognito-identity-provider";
import { cognito } from "../functions/adapters/aws-clients.ts";
import { cognitoClientRegistry } from "../functions/adapters/cognito-client-registry.ts";
import { dynamoTenantRepository } from "../functions/adapters/tenant-repository.ts";
import { TENANT_SCOPES } from "../functions/contracts/scopes.ts";
import type { IssuedClientCredential } from "../functions/core/ports/tenants.ts";
import {
  bootstrapSupportClient,
  type SupportBootstrapDeps,
} from "../functions/core/use-cases/shared/support-bootstrap.ts";

export const USAGE = `usage:
  npm run bootstrap-support -- --user-pool-id <UserPoolId> --tenants-table <Tenants table> --region <region> [--subject ops]
  (the stack's output BootstrapSupportCommand is this line, filled in)`;

export interface BootstrapArgs {
  userPoolId: string;
  tenantsTable: string;
  region: string;
  /** The support tenant's subject (its `support_subject` claim); default "ops". */
  subject: string;
}

/** The parsed arguments, or an error message naming the argument. */
export function parseBootstrapArgs(argv: readonly string[]): BootstrapArgs | { error: string } {
  let values: Record<string, string | undefined>;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: {
        "user-pool-id": { type: "string" },
        "tenants-table": { type: "string" },
        region: { type: "string" },
        subject: { type: "string", default: "ops" },
      },
    }));
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
  const region = values.region ?? "";
  const userPoolId = values["user-pool-id"] ?? "";
  const tenantsTable = values["tenants-table"] ?? "";
  const subject = values.subject ?? "";
  if (!/^[a-z]{2}(-[a-z]+)+-\d$/.test(region))
    return { error: "--region must be an AWS region, e.g. eu-central-1" };
  // Cognito pool ids are `<region>_<id>`: a pool of another region is a mistake worth catching here.
  if (!/^[\w-]+_[0-9a-zA-Z]+$/.test(userPoolId))
    return { error: "--user-pool-id must be a Cognito user pool id, e.g. eu-central-1_AbCdEf123" };
  if (!userPoolId.startsWith(`${region}_`))
    return { error: `--user-pool-id ${userPoolId} is not a pool of --region ${region}` };
  if (!/^[\w.-]{3,255}$/.test(tenantsTable))
    return { error: "--tenants-table must be a DynamoDB table name" };
  if (!/^[\w.@-]{1,64}$/.test(subject))
    return { error: "--subject must be 1-64 letters, digits or . _ @ - (default ops)" };
  return { userPoolId, tenantsTable, region, subject };
}

/** The token endpoint of a pool's Cognito domain. */
export const tokenUrlOf = (domainPrefix: string, region: string) =>
  `https://${domainPrefix}.auth.${region}.amazoncognito.com/oauth2/token`;

/** What the command prints: the credential (once) and how to get a token with it. */
export function bootstrapReport(subject: string, issued: IssuedClientCredential, tokenUrl: string): string {
  return [
    `Support client of "${subject}" created. The secret is shown once: keep it in a secret store.`,
    `ClientId      ${issued.clientId}`,
    `ClientSecret  ${issued.clientSecret}`,
    "",
    "Get a token (valid 1 hour):",
    `  curl -s -u '${issued.clientId}:${issued.clientSecret}' -d grant_type=client_credentials -d scope=${TENANT_SCOPES.support} ${tokenUrl}`,
    "",
  ].join("\n");
}

export async function runBootstrap(
  deps: SupportBootstrapDeps & { tokenUrl: () => Promise<string> },
  args: BootstrapArgs,
  now: string,
): Promise<string> {
  const issued = await bootstrapSupportClient(deps, { subject: args.subject, now });
  return bootstrapReport(args.subject, issued, await deps.tokenUrl());
}

async function main(): Promise<void> {
  const args = parseBootstrapArgs(process.argv.slice(2));
  if ("error" in args) {
    process.stderr.write(`${args.error}\n${USAGE}\n`);
    process.exit(2);
  }
  // The SDK clients of functions/adapters read their region from the environment.
  process.env.AWS_REGION = args.region;
  const report = await runBootstrap(
    {
      tenants: dynamoTenantRepository(args.tenantsTable),
      registry: cognitoClientRegistry(args.userPoolId),
      tokenUrl: async () => {
        const { UserPool } = await cognito().send(
          new DescribeUserPoolCommand({ UserPoolId: args.userPoolId }),
        );
        return UserPool?.Domain ? tokenUrlOf(UserPool.Domain, args.region) : "<the stack's TokenUrl output>";
      },
    },
    args,
    new Date().toISOString(),
  );
  process.stdout.write(report);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.dirname, "bootstrap-support.ts")) {
  main().catch((error: unknown) => {
    process.stderr.write(
      `bootstrap-support failed: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  });
}
