/**
 * bin/bootstrap-support.ts: the first support credential in AWS. Its arguments (each refusal names the
 * argument), and one run over memory adapters: the support tenant and its client are stored, the
 * secret is printed once with the curl that gets a token.
 */
import { describe, expect, it } from "vitest";
import {
  type BootstrapArgs,
  bootstrapReport,
  parseBootstrapArgs,
  runBootstrap,
  tokenUrlOf,
} from "../../../bin/bootstrap-support.ts";
import type { ClientRegistry } from "../../../functions/core/ports/tenants.ts";
import { memoryTenantRepository } from "../../support/memory/tenant-repository.ts";

const VALID = [
  "--user-pool-id",
  "eu-central-1_AbCdEf123",
  "--tenants-table",
  "Prod-DataTenants1A2B3C4D-XYZ",
  "--region",
  "eu-central-1",
];

describe("arguments", () => {
  it("reads pool, table and region; the subject defaults to ops", () => {
    expect(parseBootstrapArgs(VALID)).toEqual({
      userPoolId: "eu-central-1_AbCdEf123",
      tenantsTable: "Prod-DataTenants1A2B3C4D-XYZ",
      region: "eu-central-1",
      subject: "ops",
    });
    expect(parseBootstrapArgs([...VALID, "--subject", "night-shift"])).toMatchObject({
      subject: "night-shift",
    });
  });

  it.each([
    [["--tenants-table", "T-1", "--region", "eu-central-1"], "--user-pool-id"],
    [["--user-pool-id", "eu-central-1_Ab1", "--region", "eu-central-1"], "--tenants-table"],
    [["--user-pool-id", "eu-central-1_Ab1", "--tenants-table", "T-1"], "--region"],
    [["--user-pool-id", "eu-central-1_Ab1", "--tenants-table", "T-1", "--region", "Frankfurt"], "--region"],
    [["--user-pool-id", "us-east-1_Ab1", "--tenants-table", "T-1", "--region", "eu-central-1"], "--region"],
    [["--user-pool-id", "pool", "--tenants-table", "T-1", "--region", "eu-central-1"], "--user-pool-id"],
    [
      ["--user-pool-id", "eu-central-1_Ab1", "--tenants-table", "a b", "--region", "eu-central-1"],
      "--tenants-table",
    ],
    [[...VALID, "--subject", "ops team"], "--subject"],
    [[...VALID, "--force"], "--force"],
  ])("refuses %j naming %s", (argv, name) => {
    const parsed = parseBootstrapArgs(argv);
    expect(parsed).toHaveProperty("error");
    expect((parsed as { error: string }).error).toContain(name);
  });
});

describe("a run", () => {
  it("stores the support tenant and its client, and prints the secret once with the token curl", async () => {
    const tenants = memoryTenantRepository();
    const registered: string[] = [];
    const registry: ClientRegistry = {
      async register({ scope }) {
        registered.push(scope);
        return { clientId: "4example5client6id", clientSecret: "s3cr3t-value", secretHash: null };
      },
      async deregister() {},
    };
    const args = parseBootstrapArgs(VALID) as BootstrapArgs;
    const tokenUrl = tokenUrlOf("routemap-prod", "eu-central-1");
    const report = await runBootstrap(
      { tenants, registry, tokenUrl: async () => tokenUrl },
      args,
      "2026-11-24T10:00:00.000Z",
    );
    expect(registered).toEqual(["routemap/support"]);
    expect(await tenants.getTenant({ kind: "support", subject: "ops" })).toMatchObject({ enabled: true });
    expect(await tenants.getClient("4example5client6id")).toMatchObject({
      tenant: { kind: "support", subject: "ops" },
      enabled: true,
      secretHash: null,
    });
    expect(report).toBe(
      bootstrapReport(
        "ops",
        { clientId: "4example5client6id", clientSecret: "s3cr3t-value", secretHash: null },
        tokenUrl,
      ),
    );
    expect(report).toContain("ClientId      4example5client6id\n");
    expect(report.match(/s3cr3t-value/g)).toHaveLength(2);
    expect(report).toContain(
      "curl -s -u '4example5client6id:s3cr3t-value' -d grant_type=client_credentials -d scope=routemap/support https://routemap-prod.auth.eu-central-1.amazoncognito.com/oauth2/token",
    );
  });
});
