/**
 * Where the web app is served, for links a person opens (share links, e-mail links): `APP_BASE_URL` as
 * deployed (the CloudFront distribution, which also fronts the API), else the origin the request came
 * in on (the local runner serves `/app/` beside the API).
 */
import { SETTINGS_ENV } from "../contracts/settings.ts";

export function appBaseUrl(requestBaseUrl?: string): string {
  const configured = process.env[SETTINGS_ENV.appBaseUrl]?.trim();
  if (configured) return configured.replace(/\/+$/, "");
  if (requestBaseUrl) return new URL(requestBaseUrl).origin;
  throw new Error(`${SETTINGS_ENV.appBaseUrl} is not set and there is no request to take the origin from`);
}
