/**
 * POST /ffw/service/routemap/sendsme: trigger a route map (quality program or XTD). 200 with the
 * route map when the caller may read it, else `{ AwbNumber, Status: "Requested" }`; advice (an XTD
 * request by the owner) goes in the `x-route-map-note` header so the body stays as the spec has it.
 */
import { jitteredBackoff } from "../../adapters/backoff.ts";
import { dynamoCarrierRepository } from "../../adapters/carrier-repository.ts";
import { sqsCarrierRequestPublisher } from "../../adapters/carrier-request-publisher.ts";
import { nowIso } from "../../adapters/clock.ts";
import { dynamoRouteMapRepository } from "../../adapters/route-map-repository.ts";
import { formatAwb } from "../../core/awb.ts";
import { triggerRouteMap } from "../../core/use-cases/trigger-route-map.ts";
import { httpHandler, logger } from "./kit.ts";
import { asForwarder, mapped } from "./route-map-problems.ts";
import { SendsmeRequestSchema } from "./schemas.ts";

const deps = {
  routeMaps: dynamoRouteMapRepository(),
  carriers: dynamoCarrierRepository(),
  carrierRequests: sqsCarrierRequestPublisher(),
  backoff: jitteredBackoff,
};

export const handler = httpHandler(
  "trigger-route-map",
  { body: SendsmeRequestSchema },
  async ({ identity, body }) => {
    const reader = asForwarder(identity);
    const awb = { prefix: body.AirlinePrefix, serial: body.AwbNumber };
    const isXtd = body.IsXTD === true;
    const result = await mapped(() =>
      triggerRouteMap(deps, {
        reader,
        awb,
        agentCode: body.AgentCode,
        agentCass: body.AgentCass,
        isXtd,
        now: nowIso(),
      }),
    );
    logger.info("route map triggered", { awb: formatAwb(awb), isXtd, answer: result.kind });
    const headers = result.note ? { "x-route-map-note": result.note } : undefined;
    if (result.kind === "route-map")
      return { status: 200, rawJson: result.routeMapJson, ...(headers ? { headers } : {}) };
    return {
      status: 200,
      body: { AwbNumber: formatAwb(result.awb), Status: "Requested" },
      ...(headers ? { headers } : {}),
    };
  },
);
