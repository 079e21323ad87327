/**
 * Path parameters and the query, after the body (the order callers have always seen errors in): each
 * declared `{param}` through its parser (functions/http/params.ts, 400 naming it), then the query
 * through the route's schema. Paging (?CurrentPage=&PageSize=) is the only query the API has.
 *
 * Path parameters arrive percent-encoded: API Gateway's REST API passes `pathParameters` as the
 * client sent them (only its HTTP APIs decode them), and the local runner does the same. Each is
 * decoded once here; one that is not valid percent-encoded UTF-8 (`%ZZ`, a cut-short `%E0%A4%A`, an
 * overlong or surrogate sequence) is the caller's error, never a 500: 400 naming the parameter, or
 * what its parser answers for a malformed value (a share token's 404). A value that arrives already
 * decoded (an HTTP API in front) decodes to itself unless it holds a `%`, which no parameter's valid
 * values contain, so both gateways give the same answers.
 */
import * as v from "valibot";
import { badRequest, issuesToFieldErrors } from "../problems.ts";
import { type GatewayMiddleware, stateOf } from "../request.ts";

/**
 * Parses one decoded path segment (undefined when absent) or throws a problem. `malformed`, when
 * given, is what to throw for a segment that is not valid percent-encoding (default: 400 naming it).
 */
export type ParamParser = ((value: string | undefined) => unknown) & { malformed?: () => Error };

export interface ParamsOptions {
  params?: Readonly<Record<string, ParamParser>> | undefined;
  query?: v.GenericSchema | undefined;
}

function definedEntries(
  record: Record<string, string | undefined> | null | undefined,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record ?? {})) if (value !== undefined) out[key] = value;
  return out;
}

/** The segment decoded, or null when it is not valid percent-encoded UTF-8. */
export function decodePathSegment(raw: string): string | null {
  try {
    return decodeURIComponent(raw);
  } catch {
    return null;
  }
}

const malformedEncoding = (name: string) =>
  badRequest(`The path parameter ${name} is not valid percent-encoded UTF-8.`, [
    { field: name, message: "must be valid percent-encoded UTF-8" },
  ]);

export function requestParams(options: ParamsOptions): GatewayMiddleware {
  return {
    before: (request) => {
      const { event } = request;
      const state = stateOf(event);
      const raw = definedEntries(event.pathParameters);
      for (const [name, parse] of Object.entries(options.params ?? {})) {
        const value = raw[name];
        const decoded = value === undefined ? undefined : decodePathSegment(value);
        if (decoded === null) throw parse.malformed?.() ?? malformedEncoding(name);
        state.params[name] = parse(decoded);
      }
      if (!options.query) return;
      const parsed = v.safeParse(options.query, definedEntries(event.queryStringParameters));
      if (!parsed.success) throw badRequest("Invalid paging parameters.", issuesToFieldErrors(parsed.issues));
      state.query = parsed.output;
    },
  };
}
