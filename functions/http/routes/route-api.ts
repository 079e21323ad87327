/**
 * The shape of one route's API declaration: what its handler parses (the body and query schemas, which
 * the handler takes from here and passes to `httpRoute`) and what the OpenAPI document says about it
 * (summary, tag, named body and answer schemas with their examples, the errors it may answer). The
 * tables of the areas (beside this file) are keyed by handler id; index.ts joins them into ROUTE_API,
 * which must cover every route of functions/contracts/routes.ts.
 */
import type * as v from "valibot";
import type { HandlerId } from "../../contracts/routes.ts";

/** A schema published under components/schemas with this name, with one valid instance as its example. */
export interface Component<S extends v.GenericSchema = v.GenericSchema> {
  readonly name: string;
  readonly schema: S;
  readonly example: unknown;
}

/** Names a schema for the document; the example is typed by the schema, and a test parses it with it. */
export function component<S extends v.GenericSchema>(
  name: string,
  schema: S,
  example: v.InferInput<S>,
): Component<S> {
  return { name, schema, example };
}

/** A JSON body the pipeline parses with the component's schema (400 naming each field it refuses). */
export interface JsonBody<S extends v.GenericSchema = v.GenericSchema> extends Component<S> {
  readonly raw?: undefined;
  readonly description?: string;
}

/**
 * A body the handler's own parser reads (so its errors name the line): the pipeline only checks size
 * and content type. `json` documents the application/json form; the other content types are text.
 */
export interface RawBody {
  readonly raw: true;
  readonly json?: Component;
  readonly description: string;
}

/** An HTML page (the links of confirmation e-mails), described in words. */
export interface HtmlPage {
  readonly html: string;
}

/**
 * Refusals beyond those every route of its kind has (the document adds those: 413 on every route;
 * 401, 403 and 429 on every authenticated route; 400 and 415 on every route with a body; 400 on every
 * route with a query). A route with a path parameter names 400 (malformed) and 404 (unknown, or not yours) itself,
 * since a share link's token, for one, is never a 400.
 */
export type DeclaredError = 400 | 404 | 409 | 422 | 502 | 503;

export type ApiTag =
  | "meta"
  | "route maps"
  | "carriers"
  | "notifications"
  | "webhooks"
  | "support"
  | "one record";

export interface RouteApi {
  readonly summary: string;
  readonly tag: ApiTag;
  readonly body?: JsonBody | RawBody;
  /** The query schema the pipeline parses with; the document lists one parameter per member. */
  readonly query?: v.GenericSchema;
  /** Status of the success answer; 200 unless said. */
  readonly status?: 200 | 201 | 202 | 204;
  /** The success answer's body (none with 204). */
  readonly response?: Component | HtmlPage;
  readonly errors?: readonly DeclaredError[];
}

/** An area's table: some routes, each by its handler id (an unknown id fails to compile). */
export type RouteApis = { readonly [H in HandlerId]?: RouteApi };
