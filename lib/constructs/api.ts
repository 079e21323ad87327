/**
 * The REST API: every entry of the route table on its own Lambda, on its path and on the
 * service-prefixed path, behind a TOKEN authorizer that verifies the bearer JWT. Gateway responses
 * keep the problem+json contract for everything API Gateway answers itself: each response type with
 * its own status, DEFAULT_4XX/DEFAULT_5XX for any type added later, and 405 on a known path.
 *
 * This construct holds what the whole API shares: the RestApi (its id is the API's URL), its stage,
 * access log, authorizer and gateway responses, and the path resources two areas pass through. The
 * routes live in one nested stack per area (lib/constructs/api-areas.ts, lib/constructs/api-routes.ts).
 */
import { Duration } from "aws-cdk-lib";
import {
  AccessLogFormat,
  type IResource,
  LogGroupLogDestination,
  MethodLoggingLevel,
  Resource,
  ResponseType,
  RestApi,
  TokenAuthorizer,
} from "aws-cdk-lib/aws-apigateway";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import type { FunctionBindings } from "../function-bindings.ts";
import { planAreas } from "./api-areas.ts";
import { API_METHOD_SUPPRESSIONS, RouteAreaStack } from "./api-routes.ts";
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
  /** Route handler id -> its Lambda (in its area's nested stack), so tests and the stack find it. */
  readonly functions = new Map<string, IFunction>();
  /** The nested stack of each area of lib/constructs/api-areas.ts, by area id. */
  readonly areaStacks = new Map<string, RouteAreaStack>();

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

    // Every route lives in its area's nested stack; the path resources areas share are created here,
    // once, under "Paths" (parents first), and handed to the areas with the API's root.
    const plan = planAreas(props.serviceName);
    const paths = new Construct(this, "Paths");
    const shared = new Map<string, IResource>([["/", this.restApi.root]]);
    for (const path of plan.sharedPaths) {
      const cut = path.lastIndexOf("/");
      const parentPath = cut === 0 ? "/" : path.slice(0, cut);
      const pathPart = path.slice(cut + 1);
      const parent = shared.get(parentPath);
      if (!parent) throw new Error(`shared path ${path} comes before its parent ${parentPath}`);
      shared.set(
        path,
        parentPath === "/"
          ? new Resource(paths, pathPart, { parent, pathPart })
          : parent.addResource(pathPart),
      );
    }
    for (const { area, routes } of plan.areas) {
      const stack = new RouteAreaStack(this, {
        area,
        routes,
        restApi: this.restApi,
        sharedResources: shared,
        authorizer,
        serviceName: props.serviceName,
        bindings: props.bindings,
        logRetention: props.logRetention,
      });
      for (const [handler, fn] of stack.functions) this.functions.set(handler, fn);
      this.areaStacks.set(area.id, stack);
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
