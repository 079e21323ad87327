/**
 * Loads the station-zone table (lib/zones.ts, the largest part of the app) on first need, in its own
 * chunk, so the shipments list and sign-in never download it.
 */
import { useEffect, useState } from "preact/hooks";
import type { DateTimePair } from "./lib/route-map.ts";

export type ZoneLabel = (station: string, pair: DateTimePair) => string;

let loaded: Promise<ZoneLabel> | null = null;

export function loadZoneLabel(): Promise<ZoneLabel> {
  loaded ??= import("./lib/zones.ts").then((module) => module.zoneLabel);
  return loaded;
}

/** The zone labeller once its chunk is in, else null. */
export function useZoneLabel(): ZoneLabel | null {
  const [label, setLabel] = useState<{ fn: ZoneLabel } | null>(null);
  useEffect(() => {
    let live = true;
    loadZoneLabel().then((fn) => {
      if (live) setLabel({ fn });
    });
    return () => {
      live = false;
    };
  }, []);
  return label?.fn ?? null;
}
