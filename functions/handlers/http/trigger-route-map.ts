/**
 * POST /ffw/service/routemap/sendsme: trigger a route map (quality program or XTD). 200 with the
 * route map when the caller may read it, else `{ AwbNumber, Status: "Requested" }`; advice (an XTD
 * request by the owner) goes in the `x-route-map-note` header so the body stays as the spec has it.
 */
import { nowIso } from "../../adapters/clock.ts";
import { logger } from "../../adapters/logger.ts";
import { formatAwb } from "../../core/awb.ts";
import { type TriggerRouteMapDeps, triggerRouteMap } from "../../core/use-cases/trigger-route-map.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { ROUTE_MAP_ROUTES } from "../../http/routes/route-maps.ts";
import { carriers, conflictBackoff, httpPipeline, routeMaps, statusRequestDeps } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = ROUTE_MAP_ROUTES["trigger-route-map"];

export const make = (deps: () => TriggerRouteMapDeps, pipeline?: Pipeline) =>
  httpRoute("trigger-route-map", { body: api.body.schema }, pipeline).handle(
    async ({ identity, body, timeLeftMs }) => {
      const awb = { prefix: body.AirlinePrefix, serial: body.AwbNumber };
      const isXtd = body.IsXTD === true;
      const { AgentCode: agentCode, AgentCass: agentCass } = body;
      const result = await triggerRouteMap(deps(), {
        reader: identity,
        awb,
        agentCode,
        agentCass,
        isXtd,
        now: nowIso(),
        // Answered (409 with Retry-After if it must stop) before the function is cut off.
        timeLeftMs,
      });
      logger.info("route map triggered", { awb: formatAwb(awb), isXtd, answer: result.kind });
      const headers = result.note ? { "x-route-map-note": result.note } : undefined;
      if (result.kind === "route-map") return { status: 200, rawJson: result.routeMapJson, headers };
      return { status: 200, body: { AwbNumber: formatAwb(result.awb), Status: "Requested" }, headers };
    },
  );

export const handler = make(
  () => ({
    routeMaps: routeMaps(),
    carriers: carriers(),
    statusRequests: statusRequestDeps(),
    backoff: conflictBackoff(),
  }),
  httpPipeline,
);
