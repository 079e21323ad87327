/**
 * The refusals as the document lists them: one shared Problem schema (DESIGN.md section 6, built by
 * functions/http/problems.ts) and one response component per status, with an example body, that each
 * operation references for the statuses it may answer.
 */
import type { RouteDefinition } from "../../contracts/routes.ts";
import { MAX_BODY_BYTES } from "../middleware/request-body.ts";
import { problemBody } from "../problems.ts";
import type { DeclaredError, RouteApi } from "../routes/route-api.ts";
import { componentRef, type JsonObject } from "./json-schema.ts";

export const PROBLEM_SCHEMA = {
  type: "object",
  description:
    "RFC 9457 problem details; `type` is a stable URI clients can switch on. Extension members may follow " +
    "(POST /carrier/messages: `Applied`, what a body stored only in part did store).",
  required: ["type", "title", "status", "detail", "errors"],
  properties: {
    type: { type: "string" },
    title: { type: "string" },
    status: { type: "integer" },
    detail: { type: "string" },
    errors: {
      type: "array",
      items: { type: "object", properties: { field: { type: "string" }, message: { type: "string" } } },
    },
  },
  examples: [
    problemBody(400, "validation", "The request body is invalid.", [
      { field: "AwbNumber", message: "must be 8 digits" },
    ]),
  ],
};

export type ErrorStatus = DeclaredError | 401 | 403 | 413 | 415 | 429 | 500;

interface ErrorResponse {
  readonly name: string;
  readonly description: string;
  readonly example: ReturnType<typeof problemBody>;
  /** Seconds to wait before trying again, sent with the answer. */
  readonly retryAfter?: string;
}

const RETRY_AFTER = (when: string) => ({
  "Retry-After": { description: `Seconds to wait before ${when}`, schema: { type: "integer", minimum: 0 } },
});

const ERROR_RESPONSES: Readonly<Record<ErrorStatus, ErrorResponse>> = {
  400: {
    name: "BadRequest",
    description: "Malformed: a body, path parameter or query the route refuses; `errors` names each field",
    example: problemBody(400, "validation", "The request body is invalid.", [
      { field: "AwbNumber", message: "must be 8 digits" },
    ]),
  },
  401: {
    name: "Unauthorized",
    description: "No bearer token, or one that is invalid or expired",
    example: problemBody(401, "unauthorized", "A valid bearer token is required."),
  },
  403: {
    name: "Forbidden",
    description: "The token's role may not call this route (or may not act on this AWB)",
    example: problemBody(403, "forbidden", "This operation is not allowed for role carrier."),
  },
  404: {
    name: "NotFound",
    description: "Unknown, or not yours: the two are never told apart",
    example: problemBody(404, "not-found", "No such resource, or it is not yours."),
  },
  409: {
    name: "Conflict",
    description: "Conflicts with the stored state (a limit, a duplicate, work still in progress)",
    example: problemBody(409, "conflict", "A delivery of this id is still being attempted."),
    retryAfter: "sending again, when given",
  },
  413: {
    name: "PayloadTooLarge",
    description: `The body is over ${MAX_BODY_BYTES} bytes`,
    example: problemBody(413, "too-large", `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`),
  },
  415: {
    name: "UnsupportedMediaType",
    description: "A Content-Type the route does not accept",
    example: problemBody(
      415,
      "unsupported-media-type",
      "Content-Type must be application/json, not text/plain.",
    ),
  },
  422: {
    name: "UnprocessableContent",
    description: "Well-formed, but naming something the service cannot use; `errors` names the field",
    example: problemBody(422, "unprocessable", "Url cannot be called.", [
      { field: "Url", message: "cannot be called: a private address" },
    ]),
  },
  429: {
    name: "TooManyRequests",
    description: "The caller's rate limit is spent; Retry-After says for how long",
    example: problemBody(
      429,
      "rate-limited",
      "Too many requests: the per-minute limit of 1500 requests of tier default is used up; retry after 21 seconds.",
    ),
    retryAfter: "the next request",
  },
  500: {
    name: "InternalError",
    description: "An unexpected error, logged with the request id; no internals in the answer",
    example: problemBody(
      500,
      "internal",
      "Unexpected error; quote request id 6f1c2b9e-0d4a-4e57-9a38-b2c1d0e9f7a6 to support.",
    ),
  },
  502: {
    name: "BadGateway",
    description: "A server the service had to call answered with an error",
    example: problemBody(502, "publisher-error", "The ONE Record server answered 404."),
    retryAfter: "sending again",
  },
  503: {
    name: "ServiceUnavailable",
    description: "A server the service had to call did not answer",
    example: problemBody(503, "publisher-unavailable", "The ONE Record server did not answer."),
    retryAfter: "sending again",
  },
};

/** What every route of its kind may answer, and what its entry adds. */
export function errorStatuses(route: RouteDefinition, api: RouteApi): ErrorStatus[] {
  const statuses = new Set<ErrorStatus>(api.errors ?? []);
  if (route.roles !== "public") for (const status of [401, 403, 429] as const) statuses.add(status);
  // The pipeline refuses a body over the limit on every route, with or without a body of its own.
  statuses.add(413);
  if (route.body) for (const status of [400, 415] as const) statuses.add(status);
  if (api.query) statuses.add(400);
  return [...statuses].sort((a, b) => a - b);
}

export const errorResponseRef = (status: ErrorStatus) => ({
  $ref: `#/components/responses/${ERROR_RESPONSES[status].name}`,
});

/** The response components of the given statuses (the document lists only those it uses). */
export function errorResponseComponents(statuses: Iterable<ErrorStatus>): Record<string, JsonObject> {
  const components: Record<string, JsonObject> = {};
  for (const status of [...new Set(statuses)].sort((a, b) => a - b)) {
    const { name, description, example, retryAfter } = ERROR_RESPONSES[status];
    components[name] = {
      description,
      ...(retryAfter ? { headers: RETRY_AFTER(retryAfter) } : {}),
      content: { "application/problem+json": { schema: { $ref: componentRef("Problem") }, example } },
    };
  }
  return components;
}
