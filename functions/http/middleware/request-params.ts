/**
 * Path parameters and the query, after the body (the order callers have always seen errors in): each
 * declared `{param}` through its parser (functions/http/params.ts, 400 naming it), then the query
 * through the route's schema. Paging (?CurrentPage=&PageSize=) is the only query the API has.
 */
import * as v from "valibot";
import { badRequest, issuesToFieldErrors } from "../problems.ts";
import { type GatewayMiddleware, stateOf } from "../request.ts";

/** Parses one raw path segment (undefined when absent) or throws a problem. */
export type ParamParser = (value: string | undefined) => unknown;

export interface ParamsOptions {
  params?: Readonly<Record<string, ParamParser>> | undefined;
  query?: v.GenericSchema | undefined;
}

function definedEntries(
  record: Record<string, string | undefined> | null | undefined,
  map: (value: string) => string,
): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, value] of Object.entries(record ?? {})) if (value !== undefined) out[key] = map(value);
  return out;
}

export function requestParams(options: ParamsOptions): GatewayMiddleware {
  return {
    before: (request) => {
      const { event } = request;
      const state = stateOf(event);
      const raw = definedEntries(event.pathParameters, decodeURIComponent);
      for (const [name, parse] of Object.entries(options.params ?? {})) state.params[name] = parse(raw[name]);
      if (!options.query) return;
      const parsed = v.safeParse(
        options.query,
        definedEntries(event.queryStringParameters, (value) => value),
      );
      if (!parsed.success) throw badRequest("Invalid paging parameters.", issuesToFieldErrors(parsed.issues));
      state.query = parsed.output;
    },
  };
}
