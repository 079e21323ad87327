/**
 * The REST API: every entry of the route table on its own Lambda, on its path and on the
 * service-prefixed path, behind a TOKEN authorizer that verifies the bearer JWT. Gateway responses
 * keep the problem+json contract for everything API Gateway answers itself: each response type with
 * its own status, DEFAULT_4XX/DEFAULT_5XX for any type added later, and 405 on a known path.
 */
import { Duration, NestedStack, Stack } from "aws-cdk-lib";
import {
  AccessLogFormat,
  AuthorizationType,
  type IAuthorizer,
  Integration,
  IntegrationType,
  type IResource,
  type IRestApi,
  LogGroupLogDestination,
  MethodLoggingLevel,
  MockIntegration,
  PassthroughBehavior,
  Resource,
  ResponseType,
  RestApi,
  TokenAuthorizer,
} from "aws-cdk-lib/aws-apigateway";
import { ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import {
  HTTP_FUNCTION_TIMEOUT_SECONDS,
  ROUTES,
  type RouteDefinition,
  routePaths,
} from "../../functions/contracts/routes.ts";
import type { FunctionBindings } from "../function-bindings.ts";
import { HandlerFunction } from "./handler-function.ts";

export interface ApiProps {
  serviceName: string;
  /** Environment and grants of each function by handler id (a route's handler, or "authorizer"). */
  bindings: FunctionBindings;
  logRetention: RetentionDays;
  /** Requests per second and burst per stage (per-forwarder limits are enforced in the handlers). */
  throttle: { rateLimit: number; burstLimit: number };
}

/** The stage the API is deployed to (its URL's first segment; the web app's distribution names it). */
export const API_STAGE_NAME = "v1";

/** Handler id of the TOKEN authorizer (its entry in lib/function-access.ts). */
export const AUTHORIZER_HANDLER = "authorizer";

/**
 * What API Gateway answers itself, each as problem+json with the status it stands for. Every 4xx/5xx
 * type is listed so none falls back to the defaults with a status the body would not match; the
 * defaults catch types AWS may add later.
 */
export const GATEWAY_RESPONSES: ReadonlyArray<{
  id: string;
  type: ResponseType;
  status: number;
  title: string;
  detail: string;
  headers?: Record<string, string>;
}> = [
  {
    id: "Unauthorized",
    type: ResponseType.UNAUTHORIZED,
    status: 401,
    title: "Unauthorized",
    detail: "A valid bearer token is required.",
  },
  {
    id: "ExpiredToken",
    type: ResponseType.EXPIRED_TOKEN,
    status: 401,
    title: "Unauthorized",
    detail: "A valid bearer token is required.",
  },
  {
    id: "AccessDenied",
    type: ResponseType.ACCESS_DENIED,
    status: 403,
    title: "Forbidden",
    detail: "This token may not call this operation.",
  },
  {
    id: "InvalidSignature",
    type: ResponseType.INVALID_SIGNATURE,
    status: 403,
    title: "Forbidden",
    detail: "This request may not call this operation.",
  },
  {
    id: "InvalidApiKey",
    type: ResponseType.INVALID_API_KEY,
    status: 403,
    title: "Forbidden",
    detail: "This request may not call this operation.",
  },
  {
    id: "WafFiltered",
    type: ResponseType.WAF_FILTERED,
    status: 403,
    title: "Forbidden",
    detail: "This request was refused.",
  },
  // API Gateway answers an unknown path with 403 "Missing Authentication Token"; it is a 404.
  {
    id: "UnknownRoute",
    type: ResponseType.MISSING_AUTHENTICATION_TOKEN,
    status: 404,
    title: "Not Found",
    detail: "No such route.",
  },
  {
    id: "ResourceNotFound",
    type: ResponseType.RESOURCE_NOT_FOUND,
    status: 404,
    title: "Not Found",
    detail: "No such route.",
  },
  {
    id: "BadRequestBody",
    type: ResponseType.BAD_REQUEST_BODY,
    status: 400,
    title: "Bad Request",
    detail: "The request body is not valid.",
  },
  {
    id: "BadRequestParameters",
    type: ResponseType.BAD_REQUEST_PARAMETERS,
    status: 400,
    title: "Bad Request",
    detail: "The request parameters are not valid.",
  },
  {
    id: "TooLarge",
    type: ResponseType.REQUEST_TOO_LARGE,
    status: 413,
    title: "Payload Too Large",
    detail: "The request body is too large.",
  },
  {
    id: "MediaType",
    type: ResponseType.UNSUPPORTED_MEDIA_TYPE,
    status: 415,
    title: "Unsupported Media Type",
    detail: "Unsupported content type.",
  },
  {
    id: "Throttled",
    type: ResponseType.THROTTLED,
    status: 429,
    title: "Too Many Requests",
    detail: "Slow down and retry later.",
    headers: { "Retry-After": "'1'" },
  },
  {
    id: "QuotaExceeded",
    type: ResponseType.QUOTA_EXCEEDED,
    status: 429,
    title: "Too Many Requests",
    detail: "Slow down and retry later.",
    headers: { "Retry-After": "'60'" },
  },
  {
    id: "Default4xx",
    type: ResponseType.DEFAULT_4XX,
    status: 400,
    title: "Bad Request",
    detail: "The request was refused.",
  },
  {
    id: "AuthorizerFailure",
    type: ResponseType.AUTHORIZER_FAILURE,
    status: 500,
    title: "Internal Server Error",
    detail: "Unexpected error.",
  },
  {
    id: "AuthorizerConfiguration",
    type: ResponseType.AUTHORIZER_CONFIGURATION_ERROR,
    status: 500,
    title: "Internal Server Error",
    detail: "Unexpected error.",
  },
  {
    id: "ApiConfiguration",
    type: ResponseType.API_CONFIGURATION_ERROR,
    status: 500,
    title: "Internal Server Error",
    detail: "Unexpected error.",
  },
  {
    id: "IntegrationFailure",
    type: ResponseType.INTEGRATION_FAILURE,
    status: 502,
    title: "Bad Gateway",
    detail: "Unexpected error; retry.",
  },
  {
    id: "Timeout",
    type: ResponseType.INTEGRATION_TIMEOUT,
    status: 504,
    title: "Gateway Timeout",
    detail: "The operation took too long; retry.",
  },
  {
    id: "Default5xx",
    type: ResponseType.DEFAULT_5XX,
    status: 500,
    title: "Internal Server Error",
    detail: "Unexpected error.",
  },
];

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

/**
 * Route areas (by leading path) whose functions and methods live in a nested stack of the API: one
 * stack may hold 500 resources, and each route costs about eight (function, role, policy, log group,
 * permission, two methods, a 405 mock). The support API is the largest area that no hot path uses.
 */
export const NESTED_ROUTE_AREAS: ReadonlyArray<{ id: string; path: string }> = [
  { id: "SupportRoutes", path: "/support" },
  // The carriers' routes: the main stack was at 481 of 500 resources with the web app (493 with inbound mail).
  { id: "CarrierRoutes", path: "/carrier" },
];

/** Why methods are as they are, for cdk-nag, wherever the methods are defined. */
const API_METHOD_SUPPRESSIONS = [
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

/**
 * Resolves paths in a nested stack: the plain ones under the imported API's root, the service-prefixed
 * ones under the imported prefix resource (created once, by the main routes).
 */
function prefixedRoot(
  scope: Construct,
  api: IRestApi,
  prefix: IResource | undefined,
): { resourceForPath(path: string): IResource } {
  const imported = prefix
    ? Resource.fromResourceAttributes(scope, "ServicePrefix", {
        restApi: api,
        resourceId: prefix.resourceId,
        path: prefix.path,
      })
    : undefined;
  return {
    resourceForPath(path) {
      if (imported && (path === prefix?.path || path.startsWith(`${prefix?.path}/`)))
        return imported.resourceForPath(path.slice(imported.path.length + 1));
      return api.root.resourceForPath(path);
    },
  };
}

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

const problemTemplate = (status: number, title: string, detail: string) => ({
  "application/json": JSON.stringify({
    type: `https://route-map-tracker.dev/problems/${title.toLowerCase().replace(/\s+/g, "-")}`,
    title,
    status,
    detail,
    errors: [],
  }),
});

export class Api extends Construct {
  readonly restApi: RestApi;
  readonly authorizerFunction: IFunction;
  /** Route handler id -> its Lambda, so the stack can grant each exactly what it needs. */
  readonly functions = new Map<string, IFunction>();
  /** The nested stacks of NESTED_ROUTE_AREAS (their functions are in `functions` too). */
  readonly nestedStacks: NestedStack[] = [];

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const accessLogs = new LogGroup(this, "AccessLogs", { retention: props.logRetention });
    this.restApi = new RestApi(this, "RestApi", {
      description: "Route Map Tracker: route maps, notification rules and webhooks for freight forwarders",
      cloudWatchRole: true,
      deployOptions: {
        stageName: API_STAGE_NAME,
        accessLogDestination: new LogGroupLogDestination(accessLogs),
        accessLogFormat: AccessLogFormat.jsonWithStandardFields(),
        loggingLevel: MethodLoggingLevel.ERROR,
        tracingEnabled: true,
        throttlingRateLimit: props.throttle.rateLimit,
        throttlingBurstLimit: props.throttle.burstLimit,
      },
      binaryMediaTypes: [],
    });

    const authorizerFunction = new HandlerFunction(this, "Authorizer", {
      handlerPath: `http/${AUTHORIZER_HANDLER}`,
      environment: props.bindings.environmentFor(AUTHORIZER_HANDLER),
      logRetention: props.logRetention,
    }).fn;
    props.bindings.grant(AUTHORIZER_HANDLER, authorizerFunction);
    this.authorizerFunction = authorizerFunction;
    const authorizer = new TokenAuthorizer(this, "TokenAuthorizer", {
      handler: authorizerFunction,
      identitySource: "method.request.header.Authorization",
      resultsCacheTtl: Duration.minutes(5),
    });

    this.addGatewayResponses();

    // The main routes on the API itself; each nested area (by path) in its own nested stack, so the
    // stack stays under CloudFormation's 500-resource limit as routes are added.
    const methodAuthorizer = {
      authorizerId: authorizer.authorizerId,
      authorizationType: AuthorizationType.CUSTOM,
    };
    const nested = (route: RouteDefinition) =>
      NESTED_ROUTE_AREAS.find((area) => route.path === area.path || route.path.startsWith(`${area.path}/`));
    this.addRoutes(
      this,
      this.restApi.root,
      ROUTES.filter((route) => !nested(route)),
      authorizer,
      props,
    );
    for (const area of NESTED_ROUTE_AREAS) {
      const routes = ROUTES.filter((route) => nested(route) === area);
      if (routes.length === 0) continue;
      const stack = new NestedStack(this, area.id, {
        description: `Route Map Tracker: the ${area.path} routes`,
      });
      const api = RestApi.fromRestApiAttributes(stack, "RestApi", {
        restApiId: this.restApi.restApiId,
        rootResourceId: this.restApi.restApiRootResourceId,
      });
      // The service-prefix resource exists once, on the API (the main routes use it): import it.
      const prefix = this.restApi.root.getResource(props.serviceName);
      const root = prefixedRoot(stack, api, prefix);
      this.addRoutes(stack, root, routes, methodAuthorizer, props);
      NagSuppressions.addResourceSuppressions(stack, API_METHOD_SUPPRESSIONS, true);
      // Stage deployments must include these methods: redeploy when the area's routes change.
      this.restApi.latestDeployment?.addToLogicalId({ [area.id]: routes });
      this.restApi.latestDeployment?.node.addDependency(stack);
      this.nestedStacks.push(stack);
    }

    NagSuppressions.addResourceSuppressions(
      this.restApi,
      [
        {
          id: "AwsSolutions-APIG2",
          reason: "Bodies are validated in the handlers with valibot, which also documents them in OpenAPI.",
        },
        {
          id: "AwsSolutions-APIG3",
          reason:
            "WAF is attached per environment by the platform team; rate limits are enforced per stage and per forwarder.",
        },
        ...API_METHOD_SUPPRESSIONS,
        {
          id: "AwsSolutions-IAM4",
          reason: "API Gateway's CloudWatch role uses the AWS-managed push-to-logs policy.",
          appliesTo: [
            "Policy::arn:<AWS::Partition>:iam::aws:policy/service-role/AmazonAPIGatewayPushToCloudWatchLogs",
          ],
        },
      ],
      true,
    );
  }

  /**
   * Each route's Lambda, its methods on the route's paths (plain and service-prefixed), and a 405
   * problem+json for other methods on those paths. `root` resolves a path to its resource.
   */
  private addRoutes(
    scope: Construct,
    root: { resourceForPath(path: string): IResource },
    routes: readonly RouteDefinition[],
    authorizer: IAuthorizer,
    props: ApiProps,
  ): void {
    const resourcesWithMethods = new Map<string, IResource>();
    for (const route of routes) {
      const fn = this.functionFor(scope, route, props);
      const integration = this.integrationFor(scope, route.handler, fn);
      for (const path of routePaths(route, props.serviceName)) {
        const resource = root.resourceForPath(path);
        resource.addMethod(
          route.method,
          integration,
          route.roles === "public"
            ? { authorizationType: AuthorizationType.NONE }
            : { authorizer, authorizationType: AuthorizationType.CUSTOM },
        );
        resourcesWithMethods.set(path, resource);
      }
    }
    // A known path with another method: 405 problem+json (explicit methods take precedence over ANY).
    for (const [path, resource] of resourcesWithMethods) {
      const allowed = routes
        .filter((route) => routePaths(route, props.serviceName).includes(path))
        .map((r) => r.method);
      resource.addMethod("ANY", methodNotAllowed(allowed), {
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
  }

  /**
   * A Lambda proxy integration plus ONE invoke permission per function for the whole API (the stock
   * LambdaIntegration adds one per method and path, which alone would be a quarter of the stack's
   * resources, against CloudFormation's 500-resource limit).
   */
  private integrationFor(scope: Construct, handlerId: string, fn: IFunction): Integration {
    const existing = this.integrations.get(handlerId);
    if (existing) return existing;
    fn.addPermission(`ApiInvoke-${handlerId}`, {
      principal: new ServicePrincipal("apigateway.amazonaws.com"),
      sourceArn: this.restApi.arnForExecuteApi("*", "/*", "*"),
    });
    const integration = new Integration({
      type: IntegrationType.AWS_PROXY,
      integrationHttpMethod: "POST",
      uri: `arn:${Stack.of(scope).partition}:apigateway:${Stack.of(scope).region}:lambda:path/2015-03-31/functions/${fn.functionArn}/invocations`,
    });
    this.integrations.set(handlerId, integration);
    return integration;
  }

  private readonly integrations = new Map<string, Integration>();

  private functionFor(scope: Construct, route: RouteDefinition, props: ApiProps): IFunction {
    const existing = this.functions.get(route.handler);
    if (existing) return existing;
    const fn = new HandlerFunction(scope, `Route-${route.handler}`, {
      handlerPath: `http/${route.handler}`,
      environment: props.bindings.environmentFor(route.handler),
      timeout: Duration.seconds(HTTP_FUNCTION_TIMEOUT_SECONDS),
      logRetention: props.logRetention,
    }).fn;
    props.bindings.grant(route.handler, fn);
    this.functions.set(route.handler, fn);
    return fn;
  }

  private addGatewayResponses(): void {
    for (const response of GATEWAY_RESPONSES) {
      this.restApi.addGatewayResponse(response.id, {
        type: response.type,
        statusCode: String(response.status),
        responseHeaders: { "Content-Type": "'application/problem+json'", ...response.headers },
        templates: problemTemplate(response.status, response.title, response.detail),
      });
    }
  }
}
