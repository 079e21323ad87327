/**
 * The app's only way to the service: relative paths on its own origin (no CORS), the signed-in
 * person's bearer token, and problem+json refusals turned into an ApiError with the field errors.
 */
import { currentToken, signOutLocally } from "./auth.ts";

/** The API's answers, as the service declares them (type-only: nothing of the service is bundled). */
export type {
  CreatedShareResponse,
  CustomerEndpointResponse,
  PagedResponse,
  ReplayResponse,
  ShareListItem,
} from "../../functions/contracts/api-bodies.ts";

export interface FieldError {
  field: string;
  message: string;
}

export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly fieldErrors: FieldError[] = [],
  ) {
    super(message);
  }
}

/** Listeners told when the API answered 401 (token expired or revoked): the app shows sign-in. */
const unauthorizedListeners = new Set<() => void>();
export const onUnauthorized = (listener: () => void) => {
  unauthorizedListeners.add(listener);
  return () => unauthorizedListeners.delete(listener);
};

export async function api<T>(
  method: "GET" | "POST" | "PUT" | "DELETE",
  path: string,
  body?: unknown,
  options: { signedOut?: boolean } = {},
): Promise<T> {
  const headers: Record<string, string> = { accept: "application/json" };
  const token = options.signedOut ? null : currentToken();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(path, {
    method,
    headers,
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    cache: "no-store",
  });
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    parsed = null;
  }
  if (!response.ok) {
    if (response.status === 401 && !options.signedOut && token) {
      signOutLocally();
      for (const listener of unauthorizedListeners) listener();
    }
    const problem = (parsed ?? {}) as { detail?: unknown; title?: unknown; errors?: unknown };
    const detail =
      typeof problem.detail === "string"
        ? problem.detail
        : typeof problem.title === "string"
          ? problem.title
          : `The service answered ${response.status}.`;
    const errors = Array.isArray(problem.errors)
      ? problem.errors.filter(
          (error): error is FieldError =>
            typeof error === "object" &&
            error !== null &&
            typeof (error as FieldError).field === "string" &&
            typeof (error as FieldError).message === "string",
        )
      : [];
    throw new ApiError(response.status, detail, errors);
  }
  return parsed as T;
}

export const errorText = (error: unknown): string =>
  error instanceof Error ? error.message : "Something went wrong.";

export const FFW = "/ffw/service/routemap";
