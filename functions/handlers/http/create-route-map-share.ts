/**
 * POST /ffw/service/routemap/{awb}/share: a sign-in-free, read-only link to the route map of an AWB
 * the caller may read (else 404), with a fresh random token and id. 201 { Id, Url, ExpiresAt }.
 */
import { appBaseUrl } from "../../adapters/app-base-url.ts";
import { nowIso } from "../../adapters/clock.ts";
import { config } from "../../adapters/config.ts";
import { newShareLinkId, randomToken } from "../../adapters/random-token.ts";
import {
  type CreateRouteMapShareDeps,
  createRouteMapShare,
} from "../../core/use-cases/create-route-map-share.ts";
import { awbFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ROUTE_MAP_ROUTES } from "../../http/routes/route-maps.ts";
import { httpPipeline, routeMaps, shareLinks } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = ROUTE_MAP_ROUTES["create-route-map-share"];

/** APP_BASE_URL, the web app's origin as deployed; absent: the origin the request came in on. */
type ShareOrigin = { appBaseUrl?: string | undefined };

export const make = (deps: () => CreateRouteMapShareDeps & ShareOrigin, pipeline?: Pipeline) =>
  httpRoute(
    "create-route-map-share",
    { body: api.body.schema, params: { awb: awbFromPath } },
    pipeline,
  ).handle(async ({ identity, body, params, baseUrl }) => {
    const { appBaseUrl: configured, ...useCaseDeps } = deps();
    const created = await createRouteMapShare(useCaseDeps, {
      awb: params.awb,
      owner: identity,
      expiresInHours: body.ExpiresInHours,
      now: nowIso(),
      id: newShareLinkId(),
      token: randomToken(),
      appBaseUrl: appBaseUrl(configured, baseUrl),
    });
    // The Url is the credential: not to be kept by caches.
    return { status: 201, body: created, headers: { "cache-control": "no-store" } };
  });

export const handler = make(
  () => ({
    routeMaps: routeMaps(),
    shareLinks: shareLinks(),
    limits: config.shareLinkLimits(),
    appBaseUrl: config.appBaseUrl(),
  }),
  httpPipeline,
);
