/**
 * problem+json (RFC 9457) for every non-2xx answer (DESIGN.md section 6). Handlers and use cases throw
 * ProblemError; the error middleware turns it, and anything unexpected, into a response.
 */

export interface FieldError {
  field: string;
  message: string;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  errors: FieldError[];
}

const TITLES: Record<number, string> = {
  400: "Bad Request",
  401: "Unauthorized",
  403: "Forbidden",
  404: "Not Found",
  405: "Method Not Allowed",
  409: "Conflict",
  413: "Payload Too Large",
  415: "Unsupported Media Type",
  422: "Unprocessable Content",
  429: "Too Many Requests",
  500: "Internal Server Error",
  503: "Service Unavailable",
};

export const PROBLEM_CONTENT_TYPE = "application/problem+json";

/**
 * A 4xx/5xx the caller should see as is. `type` is a stable slug clients can switch on. `extensions`
 * are RFC 9457 extension members added to the body (e.g. `Applied` after a partly stored request).
 */
export class ProblemError extends Error {
  constructor(
    readonly status: number,
    readonly slug: string,
    readonly detail: string,
    readonly errors: FieldError[] = [],
    readonly headers: Record<string, string> = {},
    readonly extensions: Readonly<Record<string, unknown>> = {},
  ) {
    super(detail);
    this.name = "ProblemError";
  }

  toBody(): ProblemBody & Record<string, unknown> {
    // The standard members win over an extension of the same name.
    return { ...this.extensions, ...problemBody(this.status, this.slug, this.detail, this.errors) };
  }
}

export function problemBody(
  status: number,
  slug: string,
  detail: string,
  errors: FieldError[] = [],
): ProblemBody {
  return {
    type: `https://route-map-tracker.dev/problems/${slug}`,
    title: TITLES[status] ?? "Error",
    status,
    detail,
    errors,
  };
}

export const badRequest = (detail: string, errors: FieldError[] = []) =>
  new ProblemError(400, "bad-request", detail, errors);
export const notFound = (detail = "No such resource, or it is not yours.") =>
  new ProblemError(404, "not-found", detail);
export const forbidden = (detail: string) => new ProblemError(403, "forbidden", detail);
export const conflict = (detail: string) => new ProblemError(409, "conflict", detail);
export const unprocessable = (detail: string, errors: FieldError[] = []) =>
  new ProblemError(422, "unprocessable", detail, errors);
