/** PUT /support/carriers/{prefix}: create or update a carrier's participation and planning settings. */
import { nowIso } from "../../adapters/clock.ts";
import { newSigningSecret } from "../../adapters/random-token.ts";
import { carrierToApi } from "../../core/carriers.ts";
import { type PutCarrierDeps, putCarrier } from "../../core/use-cases/put-carrier.ts";
import { prefixFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { carrierSettingsOf } from "../../http/request-mapping.ts";
import { CarrierSettingsSchema } from "../../http/schemas/carriers.ts";
import { carriers, httpPipeline, tenants, webhookVerifier } from "../../wiring.ts";

export const make = (deps: () => PutCarrierDeps, pipeline?: Pipeline) =>
  httpRoute(
    "put-carrier",
    { body: CarrierSettingsSchema, params: { prefix: prefixFromPath } },
    pipeline,
  ).handle(async ({ body, params }) => {
    const settings = carrierSettingsOf(body);
    const carrier = await putCarrier(deps(), { prefix: params.prefix, settings, now: nowIso() });
    // A signing secret for a (new) status-request Url is shown in this answer only.
    const secret = carrier.newSigningSecret ? { SigningSecret: carrier.newSigningSecret } : {};
    return { status: 200, body: { ...carrierToApi(carrier), ...secret } };
  });

export const handler = make(
  () => ({
    carriers: carriers(),
    tenants: tenants(),
    statusRequestChannels: { targets: webhookVerifier(), newSigningSecret },
  }),
  httpPipeline,
);
