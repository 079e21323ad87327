/**
 * Where the web app is served, for links a person opens (share links, e-mail links): `APP_BASE_URL` as
 * deployed (the CloudFront distribution, which also fronts the API), else the origin the request came
 * in on (the local runner serves `/app/` beside the API).
 */
import { SETTINGS_ENV } from "../contracts/settings.ts";

/**
 * `configured`: APP_BASE_URL without a trailing slash (functions/adapters/config.ts), or undefined;
 * `requestBaseUrl`: the API's base URL as the caller reached it.
 */
export function appBaseUrl(configured: string | undefined, requestBaseUrl?: string): string {
  if (configured) return configured;
  if (requestBaseUrl) return new URL(requestBaseUrl).origin;
  throw new Error(`${SETTINGS_ENV.appBaseUrl} is not set and there is no request to take the origin from`);
}
