/**
 * One declaration per schema: every handler parses with the very schemas its route's entry in
 * ROUTE_API declares (recorded here from its call to httpRoute), and the OpenAPI document is generated
 * from those same objects: each JSON body and answer a named component whose example its schema
 * accepts, each operation with the errors it may answer, the OAuth 2.0 scheme and the server.
 */
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Ajv2020 } from "ajv/dist/2020.js";
import type { APIGatewayProxyEvent, Context } from "aws-lambda";
import * as v from "valibot";
import { beforeAll, describe, expect, it, vi } from "vitest";
import {
  type HandlerId,
  ROUTES,
  type RouteDefinition,
  routeOf,
} from "../../../functions/contracts/routes.ts";
import { buildOpenApiDocument } from "../../../functions/http/openapi/document.ts";
import { inlineSchema } from "../../../functions/http/openapi/json-schema.ts";
import { ROUTE_API, ROUTE_API_AREAS, type RouteApi } from "../../../functions/http/routes/index.ts";

interface Declared {
  body?: unknown;
  query?: unknown;
  rawBody?: boolean;
}

const recorded = vi.hoisted(() => new Map<string, Declared>());

vi.mock("../../../functions/http/pipeline.ts", async (importOriginal) => {
  const actual = await importOriginal<typeof import("../../../functions/http/pipeline.ts")>();
  const httpRoute: typeof actual.httpRoute = (handlerId, options) => {
    recorded.set(handlerId, { ...options });
    return actual.httpRoute(handlerId, options);
  };
  return { ...actual, httpRoute };
});

const HANDLERS = join(import.meta.dirname, "..", "..", "..", "functions", "handlers", "http");

beforeAll(async () => {
  for (const route of ROUTES) await import(pathToFileURL(join(HANDLERS, `${route.handler}.ts`)).href);
}, 120_000);

/** Where a handler's call to httpRoute and its route's declarations disagree (none when they agree). */
function mismatches(route: RouteDefinition, api: RouteApi, declared: Declared | undefined): string[] {
  const { handler } = route;
  if (!declared) return [`${handler}: its module never calls httpRoute`];
  const problems: string[] = [];
  const bodySchema = api.body && !api.body.raw ? api.body.schema : undefined;
  if (declared.body !== bodySchema)
    problems.push(
      `${handler}: parses its body with another schema than its docs declare (or one they do not)`,
    );
  if (declared.query !== api.query)
    problems.push(
      `${handler}: parses its query with another schema than its docs declare (or one they do not)`,
    );
  if ((declared.rawBody === true) !== (api.body?.raw === true))
    problems.push(`${handler}: reads its body raw where its docs say otherwise`);
  if ((route.body === undefined) !== (api.body === undefined))
    problems.push(`${handler}: the route table and its docs disagree on whether it takes a body`);
  return problems;
}

type Json = Record<string, unknown>;
const document = buildOpenApiDocument({ serverUrl: "http://127.0.0.1:3000" }) as {
  servers: Json[];
  paths: Record<string, Record<string, Json>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Json>; securitySchemes: Json };
};
const schemas = document.components.schemas;

/** A document schema with every component reference replaced by the component (examples left out). */
function resolved(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(resolved);
  if (typeof schema !== "object" || schema === null) return schema;
  const { $ref, ...rest } = schema as Json;
  if (typeof $ref === "string") {
    const { examples: _example, ...target } = schemas[$ref.replace("#/components/schemas/", "")] ?? {};
    return resolved({ ...target, ...rest });
  }
  return Object.fromEntries(Object.entries(rest).map(([key, value]) => [key, resolved(value)]));
}

const operationOf = (route: RouteDefinition) =>
  document.paths[route.path]?.[route.method.toLowerCase()] ?? {};
const jsonSchemaOf = (content: unknown) =>
  (content as { "application/json"?: { schema: unknown } } | undefined)?.["application/json"]?.schema;

describe("one declaration per schema", () => {
  it("each route has one entry, in one area's table", () => {
    const entries = ROUTE_API_AREAS.flatMap((area) => Object.keys(area));
    expect(entries.length).toBe(new Set(entries).size);
    expect([...entries].sort()).toEqual(ROUTES.map((route) => route.handler).sort());
  });

  it("every handler parses with the schemas its route's entry declares", () => {
    const problems = ROUTES.flatMap((route) =>
      mismatches(route, ROUTE_API[route.handler], recorded.get(route.handler)),
    );
    expect(problems).toEqual([]);
  });

  it("a handler with a body schema its docs do not declare, or another one than theirs, fails", () => {
    const route = routeOf("create-webhook") as RouteDefinition;
    const api = ROUTE_API["create-webhook"];
    const own = recorded.get("create-webhook");
    expect(mismatches(route, { ...api, body: undefined }, own)).toContainEqual(
      expect.stringContaining("parses its body with another schema"),
    );
    expect(mismatches(route, api, { ...own, body: v.object({ Url: v.string() }) })).toHaveLength(1);
    const list = routeOf("list-webhooks") as RouteDefinition;
    expect(
      mismatches(list, { ...ROUTE_API["list-webhooks"], query: undefined }, recorded.get("list-webhooks")),
    ).toHaveLength(1);
    expect(mismatches(list, ROUTE_API["list-webhooks"], undefined)).toHaveLength(1);
  });

  it("documents each JSON body as the named component generated from the handler's own schema", () => {
    const bodies = ROUTES.filter((route) => recorded.get(route.handler)?.body !== undefined);
    expect(bodies.length).toBeGreaterThanOrEqual(14);
    for (const route of bodies) {
      const declared = recorded.get(route.handler)?.body as v.GenericSchema;
      const ref = jsonSchemaOf((operationOf(route).requestBody as Json | undefined)?.content) as Json;
      expect(ref.$ref, route.handler).toMatch(/^#\/components\/schemas\/\w+$/);
      expect(resolved(ref), route.handler).toEqual(inlineSchema(declared));
    }
  });

  it("documents each answer with a body as a named component generated from its declared schema", () => {
    for (const route of ROUTES) {
      const api = ROUTE_API[route.handler];
      if (!api.response || !("schema" in api.response)) continue;
      const responses = operationOf(route).responses as Record<string, Json>;
      const ref = jsonSchemaOf(responses[String(api.status ?? 200)]?.content) as Json;
      expect(ref, route.handler).toEqual({ $ref: `#/components/schemas/${api.response.name}` });
      expect(resolved(ref), route.handler).toEqual(inlineSchema(api.response.schema));
    }
  });

  it("gives every component an example that its valibot schema and its JSON Schema both accept", () => {
    // valibot has already judged the e-mail addresses: the JSON Schema check needs no format library.
    const ajv = new Ajv2020({ strict: false, formats: { email: true } });
    ajv.addSchema({ $id: "doc", components: { schemas } });
    const validatorOf = (name: string) => {
      const validate = ajv.getSchema(`doc#/components/schemas/${name}`);
      if (!validate) throw new Error(`no component ${name}`);
      return validate;
    };
    const components = ROUTES.flatMap((route) => {
      const api = ROUTE_API[route.handler];
      const body = api.body?.raw ? api.body.json : api.body;
      return [...(body ? [body] : []), ...(api.response && "schema" in api.response ? [api.response] : [])];
    });
    for (const component of components) {
      const parsed = v.safeParse(component.schema, component.example);
      expect(
        parsed.issues?.map((issue) => `${v.getDotPath(issue)}: ${issue.message}`) ?? [],
        component.name,
      ).toEqual([]);
      expect(schemas[component.name]?.examples, component.name).toEqual([component.example]);
      const validate = validatorOf(component.name);
      expect(validate(component.example), `${component.name}: ${JSON.stringify(validate.errors)}`).toBe(true);
    }
    for (const name of ["Problem", "EventPayload"]) {
      const validate = validatorOf(name);
      const examples = (schemas[name]?.examples ?? []) as unknown[];
      expect(examples, name).toHaveLength(1);
      for (const example of examples) expect(validate(example), name).toBe(true);
    }
  });
});

describe("the OpenAPI document", () => {
  const responseRefs = (route: RouteDefinition) =>
    Object.fromEntries(
      Object.entries(operationOf(route).responses as Record<string, Json>).map(([status, response]) => [
        status,
        response.$ref,
      ]),
    );

  it("lists the errors each operation may answer, each a shared problem+json response", () => {
    for (const route of ROUTES) {
      const refs = responseRefs(route);
      const statuses = Object.keys(refs).filter((status) => /^[45]/.test(status));
      if (route.roles !== "public")
        expect(statuses, route.handler).toEqual(expect.arrayContaining(["401", "403", "429"]));
      if (route.body) expect(statuses, route.handler).toEqual(expect.arrayContaining(["400", "413", "415"]));
      if (route.query) expect(statuses, route.handler).toContain("400");
      // A path parameter is refused as malformed (400) or unknown (404; a share link's token is never a 400).
      if (route.path.includes("{"))
        expect(
          statuses.filter((status) => status === "400" || status === "404"),
          route.handler,
        ).not.toEqual([]);
      expect(statuses, route.handler).toContain("413");
      expect(refs.default, route.handler).toBe("#/components/responses/InternalError");
      for (const status of statuses) {
        const name = String(refs[status]).replace("#/components/responses/", "");
        const response = document.components.responses[name] as { content: Record<string, { schema: Json }> };
        expect(response.content["application/problem+json"]?.schema, `${route.handler} ${status}`).toEqual({
          $ref: "#/components/schemas/Problem",
        });
      }
    }
    expect(responseRefs(routeOf("create-webhook") as RouteDefinition)).toMatchObject({
      "409": "#/components/responses/Conflict",
      "422": "#/components/responses/UnprocessableContent",
    });
    const tooMany = document.components.responses.TooManyRequests as { headers: Json };
    expect(tooMany.headers).toHaveProperty("Retry-After");
  });

  it("has the success status each handler answers with", () => {
    const statusOf = (handler: HandlerId) =>
      Object.keys(operationOf(routeOf(handler) as RouteDefinition).responses as Json).filter((s) =>
        s.startsWith("2"),
      );
    expect(statusOf("create-forwarder")).toEqual(["201"]);
    expect(statusOf("replay-webhook-delivery")).toEqual(["202"]);
    expect(statusOf("delete-route-map-share")).toEqual(["204"]);
    expect(statusOf("get-route-map")).toEqual(["200"]);
  });

  it("offers OAuth 2.0 client credentials with its token URL beside the bearer scheme, per role", () => {
    const { oauth2, bearerAuth } = document.components.securitySchemes as Record<string, Json>;
    expect(bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(oauth2).toMatchObject({
      type: "oauth2",
      flows: { clientCredentials: { tokenUrl: "http://127.0.0.1:3000/oauth2/token" } },
    });
    expect(operationOf(routeOf("create-webhook") as RouteDefinition).security).toEqual([
      { oauth2: ["routemap/forwarder"] },
      { bearerAuth: [] },
    ]);
    expect(operationOf(routeOf("get-openapi") as RouteDefinition).security).toEqual([]);
    const cognito = "https://routemap-1a2b3c4d.auth.eu-central-1.amazoncognito.com/oauth2/token";
    const deployed = buildOpenApiDocument({
      serverUrl: "https://api.example.com/prod",
      tokenUrl: cognito,
    }) as Json;
    expect(JSON.stringify(deployed)).toContain(`"tokenUrl":"${cognito}"`);
    expect(deployed.servers).toEqual([expect.objectContaining({ url: "https://api.example.com/prod" })]);
  });

  it("names the base URL the caller used as its server (GET /openapi.json)", async () => {
    const { handler } = await import("../../../functions/handlers/http/get-openapi.ts");
    const event = {
      resource: "/openapi.json",
      path: "/openapi.json",
      httpMethod: "GET",
      headers: { Host: "127.0.0.1:4321" },
      multiValueHeaders: {},
      queryStringParameters: null,
      multiValueQueryStringParameters: null,
      pathParameters: null,
      stageVariables: null,
      body: null,
      isBase64Encoded: false,
      requestContext: { requestId: "req-openapi", path: "/openapi.json" } as never,
    } as APIGatewayProxyEvent;
    const response = await handler(event, { awsRequestId: "lambda" } as Context);
    expect(response.statusCode).toBe(200);
    const served = JSON.parse(response.body) as { servers: Json[]; components: { securitySchemes: Json } };
    expect(served.servers[0]?.url).toBe("http://127.0.0.1:4321");
    expect(JSON.stringify(served.components.securitySchemes)).toContain("http://127.0.0.1:4321/oauth2/token");
  });
});
