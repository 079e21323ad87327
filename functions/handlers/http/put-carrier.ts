/** PUT /support/carriers/{prefix}: create or update a carrier's participation and planning settings. */
import { nowIso } from "../../adapters/clock.ts";
import { newSigningSecret } from "../../adapters/random-token.ts";
import { carrierToApi } from "../../core/carriers.ts";
import { type PutCarrierDeps, putCarrier } from "../../core/use-cases/put-carrier.ts";
import { prefixFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { carrierSettingsOf } from "../../http/request-mapping.ts";
import { SUPPORT_CARRIER_ROUTES } from "../../http/routes/support-carriers.ts";
import { carriers, httpPipeline, tenants, webhookVerifier } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = SUPPORT_CARRIER_ROUTES["put-carrier"];

export const make = (deps: () => PutCarrierDeps, pipeline?: Pipeline) =>
  httpRoute("put-carrier", { body: api.body.schema, params: { prefix: prefixFromPath } }, pipeline).handle(
    async ({ body, params }) => {
      const settings = carrierSettingsOf(body);
      const carrier = await putCarrier(deps(), { prefix: params.prefix, settings, now: nowIso() });
      // A signing secret for a (new) status-request Url is shown in this answer only.
      const secret = carrier.newSigningSecret ? { SigningSecret: carrier.newSigningSecret } : {};
      return { status: 200, body: { ...carrierToApi(carrier), ...secret } };
    },
  );

export const handler = make(
  () => ({
    carriers: carriers(),
    tenants: tenants(),
    statusRequestChannels: { targets: webhookVerifier(), newSigningSecret },
  }),
  httpPipeline,
);
