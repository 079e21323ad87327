/**
 * The public page of a share link (`#/shared/<token>`): one AWB's route map, read-only, without
 * signing in and without the signed-in app's navigation, saying who shared it and until when. The
 * token stays in the fragment (never sent in a page request, so no server log holds it) and goes only
 * to the API's public routes.
 */
import { useEffect, useState } from "preact/hooks";
import { ApiError, api, errorText } from "../api.ts";
import { RouteMapSummary, Timeline } from "../components/Timeline.tsx";
import { formatAwb, formatUtc } from "../lib/format.ts";
import { awbOf, type RouteMap } from "../lib/route-map.ts";
import { useZoneLabel } from "../zones-loader.ts";

interface SharedLink {
  SharedBy: string;
  ExpiresAt: string;
}

export function SharedPage({ token }: { token: string }) {
  const [map, setMap] = useState<RouteMap | null>(null);
  const [link, setLink] = useState<SharedLink | null>(null);
  const [error, setError] = useState<{ gone: boolean; text: string } | null>(null);
  const zoneLabel = useZoneLabel();

  useEffect(() => {
    let live = true;
    const path = `/shared/routemap/${encodeURIComponent(token)}`;
    Promise.all([
      api<RouteMap>("GET", path, undefined, { signedOut: true }),
      api<SharedLink>("GET", `${path}/link`, undefined, { signedOut: true }),
    ])
      .then(([loaded, about]) => {
        if (!live) return;
        setMap(loaded);
        setLink(about);
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
  if (!map || !link || !zoneLabel)
    return (
      <p aria-live="polite" class="muted">
        Loading the shared route map…
      </p>
    );
  return (
    <>
      <p class="muted shared-note">Shared tracking page · read-only</p>
      <h1>Route map {formatAwb(awbOf(map))}</h1>
      <p class="shared-by">
        Shared by <strong>{link.SharedBy}</strong> · this link works until{" "}
        <time dateTime={link.ExpiresAt}>{formatUtc(link.ExpiresAt)}</time>
      </p>
      <RouteMapSummary map={map} />
      <Timeline map={map} zoneLabel={zoneLabel} />
    </>
  );
}
