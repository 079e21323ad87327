/**
 * POST /ffw/service/routemap/{awb}/share: a sign-in-free, read-only link to the route map of an AWB
 * the caller may read (else 404), with a fresh random token and id. 201 { Id, Url, ExpiresAt }.
 */
import { appBaseUrl } from "../../adapters/app-base-url.ts";
import { nowIso } from "../../adapters/clock.ts";
import { newShareLinkId, randomToken } from "../../adapters/random-token.ts";
import {
  type CreateRouteMapShareDeps,
  createRouteMapShare,
} from "../../core/use-cases/create-route-map-share.ts";
import { awbFromPath } from "../../http/params.ts";
import { httpRoute } from "../../http/pipeline.ts";
import { ROUTE_MAP_ROUTES } from "../../http/routes/route-maps.ts";
import { routeMaps, shareLinks } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = ROUTE_MAP_ROUTES["create-route-map-share"];

export const make = (deps: () => CreateRouteMapShareDeps) =>
  httpRoute("create-route-map-share", { body: api.body.schema, params: { awb: awbFromPath } }).handle(
    async ({ identity, body, params, baseUrl }) => {
      const created = await createRouteMapShare(deps(), {
        awb: params.awb,
        owner: identity,
        expiresInHours: body.ExpiresInHours,
        now: nowIso(),
        id: newShareLinkId(),
        token: randomToken(),
        appBaseUrl: appBaseUrl(baseUrl),
      });
      // The Url is the credential: not to be kept by caches.
      return { status: 201, body: created, headers: { "cache-control": "no-store" } };
    },
  );

export const handler = make(() => ({ routeMaps: routeMaps(), shareLinks: shareLinks() }));
