/**
 * Room to grow: every template of the app (the main stack and each nested stack), synthesized as
 * `npx cdk synth` writes it, stays at or below 80% of CloudFormation's limits (500 resources,
 * 1,000,000 bytes of template body; 200 parameters and 200 outputs), and synthesis reports no template
 * size or resource count warning. The routes are spread over the API areas of
 * lib/constructs/api-areas.ts, whose plan is checked here too: every route in exactly one area, the
 * stage's deployment after every area's methods.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { App } from "aws-cdk-lib";
import { Annotations, Match, Template } from "aws-cdk-lib/assertions";
import { beforeAll, describe, expect, it } from "vitest";
import { ROUTES, type RouteDefinition } from "../../functions/contracts/routes.ts";
import { DEFAULT_SERVICE_NAME } from "../../functions/contracts/settings.ts";
import { stackPropsFromContext } from "../../lib/app-context.ts";
import { areaOf, planAreas, ROUTE_AREAS } from "../../lib/constructs/api-areas.ts";
import { RouteMapTrackerStack } from "../../lib/route-map-tracker-stack.ts";

const LIMITS = { resources: 500, bytes: 1_000_000, parameters: 200, outputs: 200 } as const;
/** The test fails above this share of any limit; the split aims at 60% with today's routes. */
const CEILING = 0.8;

interface Measured {
  file: string;
  bytes: number;
  resources: number;
  parameters: number;
  outputs: number;
}

let stack: RouteMapTrackerStack;
let measured: Measured[];

beforeAll(() => {
  const cdkJson = JSON.parse(readFileSync(join(import.meta.dirname, "..", "..", "cdk.json"), "utf8")) as {
    context: Record<string, unknown>;
  };
  const app = new App({
    context: {
      ...cdkJson.context,
      // What the CLI adds for `cdk synth`: path, asset and version metadata in every template.
      "aws:cdk:enable-path-metadata": true,
      "aws:cdk:enable-asset-metadata": true,
      "aws:cdk:version-reporting": true,
      // Bundling changes the assets' hashes, not the templates' size.
      "aws:cdk:bundling-stacks": [],
      // A realistic production deployment, with every optional part that adds resources.
      senderAddress: "alerts@forwarder.example",
      inboundMailRecipient: "carriers@forwarder.example",
      webAppCallbackUrls: "https://tracking.forwarder.example/app/",
      rateLimitTiers: '{"gold":{"perMinute":6000,"burst":400},"partner":{"perDay":1000000}}',
      rateLimitCallerTiers:
        '{"forwarder:ACMECARGO":"gold","forwarder:FWD2":"gold","carrier:020":"partner","carrier:176":"partner"}',
    },
  });
  stack = new RouteMapTrackerStack(app, "RouteMapTracker", stackPropsFromContext(app.node));
  const { directory } = app.synth();
  measured = readdirSync(directory)
    .filter((file) => file.endsWith(".template.json"))
    .sort()
    .map((file) => {
      const path = join(directory, file);
      const template = JSON.parse(readFileSync(path, "utf8")) as Record<string, Record<string, unknown>>;
      return {
        file,
        bytes: statSync(path).size,
        resources: Object.keys(template.Resources ?? {}).length,
        parameters: Object.keys(template.Parameters ?? {}).length,
        outputs: Object.keys(template.Outputs ?? {}).length,
      };
    });
  const percent = (value: number, limit: number) => `${((100 * value) / limit).toFixed(1)}%`.padStart(6);
  console.log(
    [
      `${"template".padEnd(72)}  ${"bytes".padEnd(15)}  ${"resources".padEnd(11)}  params  outputs`,
      ...measured.map((t) =>
        [
          t.file.padEnd(72),
          `${String(t.bytes).padStart(8)} ${percent(t.bytes, LIMITS.bytes)}`,
          `${String(t.resources).padStart(4)} ${percent(t.resources, LIMITS.resources)}`,
          String(t.parameters).padStart(5),
          String(t.outputs).padStart(7),
        ].join("  "),
      ),
    ].join("\n"),
  );
}, 180_000);

describe("every template", () => {
  it("is the main stack's or one of its nested stacks'", () => {
    expect(measured.filter((t) => !t.file.endsWith(".nested.template.json")).map((t) => t.file)).toEqual([
      "RouteMapTracker.template.json",
    ]);
    // The API areas, the pipeline and the web app.
    expect(measured.length).toBe(1 + ROUTE_AREAS.length + 2);
  });

  it.each([
    { measure: "resources", limit: LIMITS.resources },
    { measure: "bytes", limit: LIMITS.bytes },
    { measure: "parameters", limit: LIMITS.parameters },
    { measure: "outputs", limit: LIMITS.outputs },
  ] as const)(
    `holds at most ${CEILING * 100} percent of CloudFormation's $limit $measure`,
    ({ measure, limit }) => {
      const over = measured
        .filter((t) => t[measure] > CEILING * limit)
        .map((t) => `${t.file}: ${t[measure]} of ${limit}`);
      expect(over).toEqual([]);
    },
  );

  it("draws no template size or resource count warning from the synthesis", () => {
    const annotations = Annotations.fromStack(stack);
    expect(annotations.findWarning("*", Match.stringLikeRegexp("Template size"))).toEqual([]);
    expect(annotations.findInfo("*", Match.stringLikeRegexp("Number of resources"))).toEqual([]);
  });
});

describe("API areas", () => {
  it("serve every route from exactly one area, each area from its own nested stack", () => {
    const plan = planAreas(DEFAULT_SERVICE_NAME);
    const served = plan.areas.flatMap(({ routes }) => routes);
    expect(served).toHaveLength(ROUTES.length);
    expect(new Set(served)).toEqual(new Set(ROUTES));
    expect([...stack.api.areaStacks.keys()].sort()).toEqual(plan.areas.map(({ area }) => area.id).sort());
    for (const [handler, fn] of stack.api.functions) {
      const route = ROUTES.find((candidate) => candidate.handler === handler) as RouteDefinition;
      expect(fn.node.path, handler).toContain(`/Api/${areaOf(route).id}/`);
    }
  });

  it("create a path two areas pass through once, in the main stack", () => {
    const { sharedPaths } = planAreas(DEFAULT_SERVICE_NAME);
    for (const path of ["/ffw", "/ffw/service/routemap", "/support", `/${DEFAULT_SERVICE_NAME}`])
      expect(sharedPaths, path).toContain(path);
    for (const path of ["/carrier", "/onerecord", "/support/forwarders", "/shared"])
      expect(sharedPaths, path).not.toContain(path);
  });

  it("take a new area in one line, and refuse a route no area serves", () => {
    const prediction = {
      handler: "predict-route-map",
      method: "GET",
      path: "/ffw/service/routemap/{awb}/prediction",
      roles: ["forwarder"],
    } as unknown as RouteDefinition;
    const areas = [
      ...ROUTE_AREAS,
      { id: "PredictionRoutes", paths: ["/ffw/service/routemap/{awb}/prediction"] },
    ];
    const plan = planAreas(DEFAULT_SERVICE_NAME, [...ROUTES, prediction], areas);
    expect(plan.areas.find(({ area }) => area.id === "PredictionRoutes")?.routes).toEqual([prediction]);
    expect(() => areaOf({ ...prediction, path: "/elsewhere" })).toThrow(/ROUTE_AREAS/);
  });

  it("deploy the stage only after every area's methods", () => {
    const main = Template.fromStack(stack).toJSON() as {
      Resources: Record<string, { Type: string; DependsOn?: string[] }>;
    };
    const deployments = Object.values(main.Resources).filter((r) => r.Type === "AWS::ApiGateway::Deployment");
    expect(deployments).toHaveLength(1);
    const areaStackIds = [...stack.api.areaStacks.values()].map((area) =>
      stack.getLogicalId(area.nestedStackResource as never),
    );
    expect(deployments[0]?.DependsOn ?? []).toEqual(expect.arrayContaining(areaStackIds));
  });
});
