/**
 * The public page of a share link (`#/shared/<token>`): one AWB's route map, read-only, without
 * signing in and without the signed-in app's navigation. The token stays in the fragment (never sent
 * in a page request, so no server log holds it) and goes only to the API's public route.
 */
import { useEffect, useState } from "preact/hooks";
import { ApiError, api, errorText } from "../api.ts";
import { RouteMapSummary, Timeline } from "../components/Timeline.tsx";
import { formatAwb } from "../lib/format.ts";
import { awbOf, type RouteMap } from "../lib/route-map.ts";
import { useZoneLabel } from "../zones-loader.ts";

export function SharedPage({ token }: { token: string }) {
  const [map, setMap] = useState<RouteMap | null>(null);
  const [error, setError] = useState<{ gone: boolean; text: string } | null>(null);
  const zoneLabel = useZoneLabel();

  useEffect(() => {
    let live = true;
    api<RouteMap>("GET", `/shared/routemap/${encodeURIComponent(token)}`, undefined, { signedOut: true })
      .then((loaded) => {
        if (live) setMap(loaded);
      })
      .catch((reason: unknown) => {
        if (live)
          setError({ gone: reason instanceof ApiError && reason.status === 404, text: errorText(reason) });
      });
    return () => {
      live = false;
    };
  }, [token]);

  if (error)
    return (
      <div class="card narrow-card">
        <h1>{error.gone ? "Link not available" : "Could not load the route map"}</h1>
        <p>
          {error.gone
            ? "This share link has expired, been revoked, or never existed. Ask the sender for a new one."
            : error.text}
        </p>
      </div>
    );
  if (!map || !zoneLabel)
    return (
      <p aria-live="polite" class="muted">
        Loading the shared route map…
      </p>
    );
  return (
    <>
      <p class="muted shared-note">Shared tracking page · read-only</p>
      <h1>Route map {formatAwb(awbOf(map))}</h1>
      <RouteMapSummary map={map} />
      <Timeline map={map} zoneLabel={zoneLabel} />
    </>
  );
}
