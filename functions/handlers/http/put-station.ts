/** PUT /support/stations/{code}: a station's minimum connection time (support). */
import { nowIso } from "../../adapters/clock.ts";
import type { StationSettings } from "../../core/ports/predictions.ts";
import { setStationConnectionTime } from "../../core/use-cases/route-map-eta.ts";
import { stationCodeFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { PREDICTION_ROUTES } from "../../http/routes/predictions.ts";
import { httpPipeline, stationSettings } from "../../wiring.ts";

const api = PREDICTION_ROUTES["put-station"];

export const make = (
  deps: () => { stations: Pick<StationSettings, "setMinimumConnectionTime"> },
  pipeline?: Pipeline,
) =>
  httpRoute("put-station", { body: api.body.schema, params: { code: stationCodeFromPath } }, pipeline).handle(
    async ({ body, params }) => ({
      status: 200,
      body: await setStationConnectionTime(deps(), {
        station: params.code,
        minutes: body.MinimumConnectionMinutes,
        now: nowIso(),
      }),
    }),
  );

export const handler = make(() => ({ stations: stationSettings() }), httpPipeline);
