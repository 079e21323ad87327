/**
 * One shipment's route map: the timeline, the history control (the map as of any snapshot and what
 * changed against another) and the Share dialog.
 */
import { useEffect, useState } from "preact/hooks";
import { ApiError, api, errorText, FFW } from "../api.ts";
import { RouteMapSummary, Timeline } from "../components/Timeline.tsx";
import { formatAwb, formatUtc } from "../lib/format.ts";
import { actualSources } from "../lib/provenance.ts";
import {
  ROUTE_MAP_STATUS_WORDS,
  type RouteMap,
  type RouteMapHistory,
  routeMapChanges,
} from "../lib/route-map.ts";
import { useZoneLabel } from "../zones-loader.ts";
import { ShareDialog } from "./ShareDialog.tsx";

const CURRENT = "current";
const NONE = "none";

export function RouteMapPage({ awb }: { awb: string }) {
  const [history, setHistory] = useState<RouteMapHistory | null>(null);
  const [error, setError] = useState<{ status: number; text: string } | null>(null);
  const [asOf, setAsOf] = useState(CURRENT);
  const [compareWith, setCompareWith] = useState(NONE);
  const [sharing, setSharing] = useState(false);
  const zoneLabel = useZoneLabel();

  useEffect(() => {
    let live = true;
    setHistory(null);
    setError(null);
    setAsOf(CURRENT);
    setCompareWith(NONE);
    // The history answer carries the current map too: one request for the page.
    api<RouteMapHistory>("GET", `${FFW}/${awb}/history?PageSize=100`)
      .then((loaded) => {
        if (live) setHistory(loaded);
      })
      .catch((reason: unknown) => {
        if (live)
          setError({ status: reason instanceof ApiError ? reason.status : 0, text: errorText(reason) });
      });
    return () => {
      live = false;
    };
  }, [awb]);

  const title = `Route map ${formatAwb(awb)}`;
  if (error)
    return (
      <>
        <h1>{title}</h1>
        <p class="error" role="alert">
          {error.status === 404
            ? `No route map found for AWB ${formatAwb(awb)} (or it is not one of yours).`
            : error.text}
        </p>
        <p>
          <a href="#/shipments">Back to the shipments</a>
        </p>
      </>
    );
  if (!history || !zoneLabel)
    return (
      <>
        <h1>{title}</h1>
        <p aria-live="polite">Loading…</p>
      </>
    );

  const mapAt = (choice: string): RouteMap | null =>
    choice === CURRENT ? history.RouteMap : (history.Snapshots[Number(choice)]?.RouteMap ?? null);
  const shown = mapAt(asOf) ?? history.RouteMap;
  const other = compareWith === NONE ? null : mapAt(compareWith);
  // Changes read forward in time: from the older of the two maps to the newer one.
  const olderFirst =
    other && (compareWith === CURRENT || (asOf !== CURRENT && Number(compareWith) < Number(asOf)));
  const changes = other
    ? olderFirst
      ? routeMapChanges(shown, other, zoneLabel)
      : routeMapChanges(other, shown, zoneLabel)
    : [];
  const snapshotLabel = (index: number) => {
    const snapshot = history.Snapshots[index];
    if (!snapshot) return "";
    const number = history.Snapshots.length - index;
    const status = ROUTE_MAP_STATUS_WORDS[snapshot.RouteMap.Status] ?? snapshot.RouteMap.Status;
    return `#${number} · ${formatUtc(snapshot.SnapshotDate.Utc)} · ${status}`;
  };

  return (
    <>
      <div class="page-head">
        <h1>{title}</h1>
        <button type="button" class="primary" onClick={() => setSharing(true)}>
          Share
        </button>
      </div>
      <RouteMapSummary map={shown} />
      <section class="history card" aria-labelledby="history-title">
        <h2 id="history-title" class="small-heading">
          History
        </h2>
        <div class="history-controls">
          <label>
            As of
            <select value={asOf} onChange={(event) => setAsOf(event.currentTarget.value)}>
              <option value={CURRENT}>Now (current)</option>
              {history.Snapshots.map((_, index) => (
                <option key={snapshotLabel(index)} value={String(index)}>
                  {snapshotLabel(index)}
                </option>
              ))}
            </select>
          </label>
          <label>
            Compare with
            <select value={compareWith} onChange={(event) => setCompareWith(event.currentTarget.value)}>
              <option value={NONE}>Nothing</option>
              <option value={CURRENT}>Now (current)</option>
              {history.Snapshots.map((_, index) => (
                <option key={snapshotLabel(index)} value={String(index)}>
                  {snapshotLabel(index)}
                </option>
              ))}
            </select>
          </label>
        </div>
        {other ? (
          <div aria-live="polite">
            <h3 class="small-heading">Changes</h3>
            {changes.length > 0 ? (
              <ul class="changes">
                {changes.map((change) => (
                  <li key={change}>{change}</li>
                ))}
              </ul>
            ) : (
              <p class="muted">No differences.</p>
            )}
          </div>
        ) : null}
      </section>
      <Timeline map={shown} zoneLabel={zoneLabel} sources={actualSources(history, shown)} />
      {sharing ? <ShareDialog awb={awb} onClose={() => setSharing(false)} /> : null}
    </>
  );
}
