/**
 * One API area (lib/constructs/api-areas.ts) as a nested stack: each of its routes on its own Lambda,
 * its methods on the route's plain and service-prefixed paths, and a 405 problem+json for any other
 * method on those paths. The methods attach to the one RestApi of the parent stack: to a path resource
 * the area owns (created here) or to one the areas share (created once by the API and passed in), so
 * the stage's deployment depends on them and redeploys when any changes.
 */
import { Duration, NestedStack, Stack } from "aws-cdk-lib";
import {
  AuthorizationType,
  type IAuthorizer,
  Integration,
  IntegrationType,
  type IResource,
  type IRestApi,
  Method,
  type MethodOptions,
  MockIntegration,
  PassthroughBehavior,
  Resource,
} from "aws-cdk-lib/aws-apigateway";
import { ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import {
  HTTP_FUNCTION_TIMEOUT_SECONDS,
  type RouteDefinition,
  routePaths,
} from "../../functions/contracts/routes.ts";
import type { FunctionBindings } from "../function-bindings.ts";
import type { RouteArea } from "./api-areas.ts";
import { HandlerFunction } from "./handler-function.ts";

/**
 * Content types the 405 mock maps explicitly; any other passes through (WHEN_NO_MATCH) and the mock
 * answers its default integration response, also the 405, so no request type can turn it into 415.
 */
export const METHOD_NOT_ALLOWED_CONTENT_TYPES = [
  "application/json",
  "application/problem+json",
  "text/plain",
  "application/xml",
  "text/xml",
  "application/x-www-form-urlencoded",
  "multipart/form-data",
  "application/octet-stream",
  "text/html",
  "text/csv",
] as const;

/** Why methods are as they are, for cdk-nag, wherever the methods are defined. */
export const API_METHOD_SUPPRESSIONS = [
  {
    id: "AwsSolutions-APIG4",
    reason:
      'Only the public routes (GET /openapi.json, e-mail confirmation links, route-map share links: roles "public" in the route table) and the 405 mock methods are unauthenticated.',
  },
  {
    id: "AwsSolutions-COG4",
    reason: "A TOKEN authorizer verifies Cognito/OIDC JWTs with aws-jwt-verify (issuer configurable).",
  },
];

/** The 405 mock of a known path: problem+json naming the allowed methods. */
function methodNotAllowed(allowed: readonly string[]): MockIntegration {
  return new MockIntegration({
    passthroughBehavior: PassthroughBehavior.WHEN_NO_MATCH,
    requestTemplates: Object.fromEntries(
      METHOD_NOT_ALLOWED_CONTENT_TYPES.map((type) => [type, '{"statusCode": 405}']),
    ),
    integrationResponses: [
      {
        // No selectionPattern: the default response, whatever status the mock produced.
        statusCode: "405",
        responseParameters: {
          "method.response.header.Allow": `'${allowed.join(", ")}'`,
          "method.response.header.Content-Type": "'application/problem+json'",
        },
        responseTemplates: {
          "application/json": JSON.stringify({
            type: "https://route-map-tracker.dev/problems/method-not-allowed",
            title: "Method Not Allowed",
            status: 405,
            detail: `Allowed methods: ${allowed.join(", ")}.`,
            errors: [],
          }),
        },
      },
    ],
  });
}

export interface RouteAreaStackProps {
  area: RouteArea;
  routes: readonly RouteDefinition[];
  restApi: IRestApi;
  /** Path resources the areas share, by path ("/" is the API's root), created by the API. */
  sharedResources: ReadonlyMap<string, IResource>;
  authorizer: IAuthorizer;
  serviceName: string;
  /** Environment and grants of each function by handler id. */
  bindings: FunctionBindings;
  logRetention: RetentionDays;
}

export class RouteAreaStack extends NestedStack {
  /** Route handler id -> its Lambda. */
  readonly functions = new Map<string, IFunction>();
  private readonly ownResources = new Map<string, IResource>();
  /** Constructs here under which the area's resources and methods on a shared path are defined. */
  private readonly anchors = new Map<string, Construct>();
  private readonly integrations = new Map<string, Integration>();

  constructor(
    scope: Construct,
    private readonly props: RouteAreaStackProps,
  ) {
    super(scope, props.area.id, {
      description: `Route Map Tracker: the API routes under ${props.area.paths.join(", ")}`,
    });
    const { routes, serviceName } = props;
    const paths = new Set<string>();
    for (const route of routes) {
      const integration = this.integrationFor(route);
      for (const path of routePaths(route, serviceName)) {
        this.method(path, route.method, integration, {
          ...(route.roles === "public"
            ? { authorizationType: AuthorizationType.NONE }
            : { authorizer: props.authorizer, authorizationType: AuthorizationType.CUSTOM }),
        });
        paths.add(path);
      }
    }
    // A known path with another method: 405 problem+json (explicit methods take precedence over ANY).
    for (const path of paths) {
      const allowed = routes
        .filter((route) => routePaths(route, serviceName).includes(path))
        .map((route) => route.method);
      this.method(path, "ANY", methodNotAllowed(allowed), {
        authorizationType: AuthorizationType.NONE,
        methodResponses: [
          {
            statusCode: "405",
            responseParameters: {
              "method.response.header.Allow": true,
              "method.response.header.Content-Type": true,
            },
          },
        ],
      });
    }
    NagSuppressions.addResourceSuppressions(this, API_METHOD_SUPPRESSIONS, true);
  }

  private method(path: string, httpMethod: string, integration: Integration, options: MethodOptions): void {
    const resource = this.resourceAt(path);
    const scope = this.props.sharedResources.has(path) ? this.anchorAt(path) : resource;
    new Method(scope, httpMethod, { resource, httpMethod, integration, options });
  }

  /** The path resource of `path`: a shared one, or this area's own (created with its parents). */
  private resourceAt(path: string): IResource {
    const existing = this.props.sharedResources.get(path) ?? this.ownResources.get(path);
    if (existing) return existing;
    const cut = path.lastIndexOf("/");
    const parentPath = cut === 0 ? "/" : path.slice(0, cut);
    const pathPart = path.slice(cut + 1);
    const parent = this.resourceAt(parentPath);
    const created = this.props.sharedResources.has(parentPath)
      ? new Resource(this.anchorAt(parentPath), pathPart, { parent, pathPart })
      : parent.addResource(pathPart);
    this.ownResources.set(path, created);
    return created;
  }

  private anchorAt(path: string): Construct {
    let anchor = this.anchors.get(path);
    if (!anchor) {
      // Construct ids cannot hold "/": "/ffw/service" is anchored at "Shared.ffw.service".
      anchor = new Construct(this, `Shared${path === "/" ? "" : path.replaceAll("/", ".")}`);
      this.anchors.set(path, anchor);
    }
    return anchor;
  }

  /**
   * The route's Lambda and its proxy integration, with ONE invoke permission per function for the
   * whole API (the stock LambdaIntegration adds one per method and path, a quarter of the resources).
   */
  private integrationFor(route: RouteDefinition): Integration {
    const existing = this.integrations.get(route.handler);
    if (existing) return existing;
    const { bindings, logRetention, restApi } = this.props;
    const fn = new HandlerFunction(this, `Route-${route.handler}`, {
      handlerPath: `http/${route.handler}`,
      environment: bindings.environmentFor(route.handler),
      timeout: Duration.seconds(HTTP_FUNCTION_TIMEOUT_SECONDS),
      logRetention,
    }).fn;
    bindings.grant(route.handler, fn);
    this.functions.set(route.handler, fn);
    fn.addPermission(`ApiInvoke-${route.handler}`, {
      principal: new ServicePrincipal("apigateway.amazonaws.com"),
      sourceArn: restApi.arnForExecuteApi("*", "/*", "*"),
    });
    const { partition, region } = Stack.of(this);
    const integration = new Integration({
      type: IntegrationType.AWS_PROXY,
      integrationHttpMethod: "POST",
      uri: `arn:${partition}:apigateway:${region}:lambda:path/2015-03-31/functions/${fn.functionArn}/invocations`,
    });
    this.integrations.set(route.handler, integration);
    return integration;
  }
}
