/** DELETE /ffw/service/routemap/{awb}/share/{id}: revokes one of the caller's share links (204; else 404). */
import { deleteRouteMapShare } from "../../core/use-cases/delete-route-map-share.ts";
import { awbFromPath, guidFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { httpPipeline, shareLinks } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof deleteRouteMapShare>, pipeline?: Pipeline) =>
  httpRoute("delete-route-map-share", { params: { awb: awbFromPath, id: guidFromPath } }, pipeline).handle(
    async ({ identity, params }) => {
      await deleteRouteMapShare(deps(), { awb: params.awb, owner: identity, id: params.id });
      return { status: 204 };
    },
  );

export const handler = make(() => ({ shareLinks: shareLinks() }), httpPipeline);
