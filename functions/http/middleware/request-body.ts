/**
 * The body, refused before the handler runs: 413 over 256 KB (every route), then, on routes that take
 * a body, 415 for a content type the route table does not list, 400 for malformed JSON and 400 with
 * field errors for a body the route's valibot schema refuses.
 */
import type { APIGatewayProxyEvent } from "aws-lambda";
import * as v from "valibot";
import type { RouteDefinition } from "../../contracts/routes.ts";
import { issuesToFieldErrors, ProblemError } from "../problems.ts";
import { type GatewayMiddleware, stateOf } from "../request.ts";

/** Bodies above this are refused with 413 before any parsing (DESIGN.md section 6). */
export const MAX_BODY_BYTES = 256 * 1024;

export interface BodyOptions {
  /** Schema of the JSON body; without one a JSON body is parsed but not validated. */
  body?: v.GenericSchema | undefined;
  /** Leave even a JSON body unparsed (the handler's own parser reports errors by line). */
  rawBody?: boolean | undefined;
}

function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  const wanted = name.toLowerCase();
  for (const [key, value] of Object.entries(event.headers ?? {})) {
    if (key.toLowerCase() === wanted && value !== undefined) return value;
  }
  return undefined;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    throw new ProblemError(400, "malformed-json", "The request body is not valid JSON.");
  }
}

/**
 * The dot path of the first `__proto__` member anywhere in a parsed body, or null. The schemas read
 * tolerantly (unknown members are dropped, so such a key could pollute nothing), but a prototype key is
 * never an honest client's: it is refused rather than ignored. Iterative, so deep nesting cannot
 * overflow the stack.
 */
function prototypeKeyPath(body: unknown): string | null {
  const stack: Array<{ value: unknown; path: string }> = [{ value: body, path: "" }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as { value: unknown; path: string };
    if (typeof value !== "object" || value === null) continue;
    for (const [key, child] of Object.entries(value)) {
      const childPath = path === "" ? key : `${path}.${key}`;
      if (key === "__proto__") return childPath;
      stack.push({ value: child, path: childPath });
    }
  }
  return null;
}

export function requestBody(route: RouteDefinition, options: BodyOptions): GatewayMiddleware {
  return {
    before: (request) => {
      const { event } = request;
      const state = stateOf(event);
      const rawBody = event.body
        ? event.isBase64Encoded
          ? Buffer.from(event.body, "base64").toString("utf8")
          : event.body
        : "";
      if (Buffer.byteLength(rawBody, "utf8") > MAX_BODY_BYTES) {
        throw new ProblemError(413, "too-large", `Request bodies are limited to ${MAX_BODY_BYTES} bytes.`);
      }
      const contentType = (header(event, "content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
      state.rawBody = rawBody;
      state.contentType = contentType;
      if (!route.body) return;
      if (!route.body.contentTypes.includes(contentType)) {
        throw new ProblemError(
          415,
          "unsupported-media-type",
          `Content-Type must be ${route.body.contentTypes.join(" or ")}${contentType ? `, not ${contentType}` : ""}.`,
        );
      }
      if (contentType !== "application/json" || options.rawBody) return;
      const json = parseJson(rawBody);
      if (!options.body) {
        state.body = json;
        return;
      }
      const prototypeKey = prototypeKeyPath(json);
      if (prototypeKey !== null) {
        throw new ProblemError(400, "validation", "The request body is invalid.", [
          { field: prototypeKey, message: "a prototype key is not accepted" },
        ]);
      }
      const result = v.safeParse(options.body, json);
      if (!result.success) {
        throw new ProblemError(
          400,
          "validation",
          "The request body is invalid.",
          issuesToFieldErrors(result.issues),
        );
      }
      state.body = result.output;
    },
  };
}
