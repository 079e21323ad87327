/**
 * The REST API: every entry of the route table on its own Lambda, on its path and on the
 * service-prefixed path, behind a TOKEN authorizer that verifies the bearer JWT. Gateway responses
 * keep the problem+json contract for what API Gateway answers itself (401, 403, unknown route 404,
 * 405 on a known path, 413, 429, 5xx).
 */
import { Duration, Stack } from "aws-cdk-lib";
import {
  AccessLogFormat,
  AuthorizationType,
  Integration,
  IntegrationType,
  type IResource,
  LogGroupLogDestination,
  MethodLoggingLevel,
  MockIntegration,
  PassthroughBehavior,
  ResponseType,
  RestApi,
  TokenAuthorizer,
} from "aws-cdk-lib/aws-apigateway";
import { ServicePrincipal } from "aws-cdk-lib/aws-iam";
import type { IFunction } from "aws-cdk-lib/aws-lambda";
import { LogGroup, type RetentionDays } from "aws-cdk-lib/aws-logs";
import { NagSuppressions } from "cdk-nag";
import { Construct } from "constructs";
import { ROUTES, type RouteDefinition, routePaths } from "../../functions/handlers/http/routes.ts";
import { HandlerFunction } from "./handler-function.ts";

export interface ApiProps {
  serviceName: string;
  environment: Record<string, string>;
  logRetention: RetentionDays;
  /** Requests per second and burst per stage (per-forwarder limits are enforced in the handlers). */
  throttle: { rateLimit: number; burstLimit: number };
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

  constructor(scope: Construct, id: string, props: ApiProps) {
    super(scope, id);
    const accessLogs = new LogGroup(this, "AccessLogs", { retention: props.logRetention });
    this.restApi = new RestApi(this, "RestApi", {
      description: "Route Map Tracker: route maps, notification rules and webhooks for freight forwarders",
      cloudWatchRole: true,
      deployOptions: {
        stageName: "v1",
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
      handlerPath: "http/authorizer",
      environment: props.environment,
      logRetention: props.logRetention,
    }).fn;
    this.authorizerFunction = authorizerFunction;
    const authorizer = new TokenAuthorizer(this, "TokenAuthorizer", {
      handler: authorizerFunction,
      identitySource: "method.request.header.Authorization",
      resultsCacheTtl: Duration.minutes(5),
    });

    this.addGatewayResponses();

    const resourcesWithMethods = new Map<string, IResource>();
    for (const route of ROUTES) {
      const fn = this.functionFor(route, props);
      const integration = this.integrationFor(route.handler, fn);
      for (const path of routePaths(route, props.serviceName)) {
        const resource = this.restApi.root.resourceForPath(path);
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
      const allowed = ROUTES.filter((route) => routePaths(route, props.serviceName).includes(path)).map(
        (r) => r.method,
      );
      resource.addMethod(
        "ANY",
        new MockIntegration({
          passthroughBehavior: PassthroughBehavior.NEVER,
          requestTemplates: { "application/json": '{"statusCode": 405}' },
          integrationResponses: [
            {
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
        }),
        {
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
        },
      );
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
        {
          id: "AwsSolutions-APIG4",
          reason:
            "Only GET /openapi.json (public API description) and the 405 mock methods are unauthenticated.",
        },
        {
          id: "AwsSolutions-COG4",
          reason: "A TOKEN authorizer verifies Cognito/OIDC JWTs with aws-jwt-verify (issuer configurable).",
        },
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
   * A Lambda proxy integration plus ONE invoke permission per function for the whole API (the stock
   * LambdaIntegration adds one per method and path, which alone would be a quarter of the stack's
   * resources, against CloudFormation's 500-resource limit).
   */
  private integrationFor(handlerId: string, fn: IFunction): Integration {
    const existing = this.integrations.get(handlerId);
    if (existing) return existing;
    fn.addPermission(`ApiInvoke-${handlerId}`, {
      principal: new ServicePrincipal("apigateway.amazonaws.com"),
      sourceArn: this.restApi.arnForExecuteApi("*", "/*", "*"),
    });
    const integration = new Integration({
      type: IntegrationType.AWS_PROXY,
      integrationHttpMethod: "POST",
      uri: `arn:${Stack.of(this).partition}:apigateway:${Stack.of(this).region}:lambda:path/2015-03-31/functions/${fn.functionArn}/invocations`,
    });
    this.integrations.set(handlerId, integration);
    return integration;
  }

  private readonly integrations = new Map<string, Integration>();

  private functionFor(route: RouteDefinition, props: ApiProps): IFunction {
    const existing = this.functions.get(route.handler);
    if (existing) return existing;
    const fn = new HandlerFunction(this, `Route-${route.handler}`, {
      handlerPath: `http/${route.handler}`,
      environment: props.environment,
      logRetention: props.logRetention,
    }).fn;
    this.functions.set(route.handler, fn);
    return fn;
  }

  private addGatewayResponses(): void {
    const json = { "Content-Type": "'application/problem+json'" };
    const add = (id: string, type: ResponseType, status: number, title: string, detail: string, extra = {}) =>
      this.restApi.addGatewayResponse(id, {
        type,
        statusCode: String(status),
        responseHeaders: { ...json, ...extra },
        templates: problemTemplate(status, title, detail),
      });
    add("Unauthorized", ResponseType.UNAUTHORIZED, 401, "Unauthorized", "A valid bearer token is required.");
    add(
      "AccessDenied",
      ResponseType.ACCESS_DENIED,
      403,
      "Forbidden",
      "This token may not call this operation.",
    );
    add("UnknownRoute", ResponseType.MISSING_AUTHENTICATION_TOKEN, 404, "Not Found", "No such route.");
    add(
      "TooLarge",
      ResponseType.REQUEST_TOO_LARGE,
      413,
      "Payload Too Large",
      "The request body is too large.",
    );
    add("Throttled", ResponseType.THROTTLED, 429, "Too Many Requests", "Slow down and retry later.", {
      "Retry-After": "'1'",
    });
    add(
      "MediaType",
      ResponseType.UNSUPPORTED_MEDIA_TYPE,
      415,
      "Unsupported Media Type",
      "Unsupported content type.",
    );
    add(
      "AuthorizerFailure",
      ResponseType.AUTHORIZER_FAILURE,
      500,
      "Internal Server Error",
      "Unexpected error.",
    );
    add(
      "Timeout",
      ResponseType.INTEGRATION_TIMEOUT,
      504,
      "Gateway Timeout",
      "The operation took too long; retry.",
    );
    add("Default5xx", ResponseType.DEFAULT_5XX, 500, "Internal Server Error", "Unexpected error.");
  }
}
