/**
 * Counts a route's error answers by class, after the pipeline answered (so whatever refused the
 * request, a middleware or the use case, is counted once, as the caller saw it): the problem slug of a
 * 4xx (`invalid-carrier-message`, `forbidden`, ...), "server-error" for a 5xx.
 */
import type { APIGatewayProxyEvent, APIGatewayProxyResult, Context } from "aws-lambda";
import { SERVER_ERROR_CLASS } from "../contracts/metrics.ts";
import type { HttpHandler } from "./pipeline.ts";

const SLUG = /\/problems\/([a-z0-9-]+)"/;

/** The class of an answer: its problem slug, "server-error" for a 5xx, null for a success. */
export function errorClassOf(result: Pick<APIGatewayProxyResult, "statusCode" | "body">): string | null {
  if (result.statusCode >= 500) return SERVER_ERROR_CLASS;
  if (result.statusCode < 400) return null;
  return SLUG.exec(result.body)?.[1] ?? `http-${result.statusCode}`;
}

export type CountedHandler = (
  event: APIGatewayProxyEvent,
  context: Context,
) => Promise<APIGatewayProxyResult>;

export function countingErrors(
  handler: HttpHandler,
  count: (errorClass: string, answer: APIGatewayProxyResult) => void,
): CountedHandler {
  return async (event, context) => {
    const result = await handler(event, context);
    const errorClass = errorClassOf(result);
    if (errorClass) count(errorClass, result);
    return result;
  };
}
