/**
 * Where the web app is served, for links a person opens (share links, e-mail links): `APP_BASE_URL` as
 * deployed (the CloudFront distribution, which also fronts the API), else the origin the request came
 * in on (the local runner serves `/app/` beside the API).
 */
import { SETTINGS_ENV } from "../contracts/settings.ts";

/** APP_BASE_URL without a trailing slash, or undefined: for work outside a request (e-mail links). */
export function configuredAppBaseUrl(): string | undefined {
  const configured = process.env[SETTINGS_ENV.appBaseUrl]?.trim();
  return configured ? configured.replace(/\/+$/, "") : undefined;
}

export function appBaseUrl(requestBaseUrl?: string): string {
  const configured = configuredAppBaseUrl();
  if (configured) return configured;
  if (requestBaseUrl) return new URL(requestBaseUrl).origin;
  throw new Error(`${SETTINGS_ENV.appBaseUrl} is not set and there is no request to take the origin from`);
}
