/** In-memory wiring of the route-map use cases for unit tests. */

import type { CarrierSettings } from "../../../functions/core/carriers.ts";
import type { ForwarderIdentity } from "../../../functions/core/identity.ts";
import type { DeliveryJob } from "../../../functions/core/ports/notifications.ts";
import type { RouteMapRepository } from "../../../functions/core/ports/route-maps.ts";
import type { StatusRequest } from "../../../functions/core/status-requests.ts";
import { ingestCarrierMessage } from "../../../functions/core/use-cases/ingest-carrier-message.ts";
import type { StatusRequestDeps } from "../../../functions/core/use-cases/shared/status-requests.ts";
import { memoryDeliveryRepository } from "../../support/memory/delivery-repository.ts";
import { type MemoryRawMessageStore, memoryRawMessageStore } from "../../support/memory/raw-messages.ts";
import {
  type MemoryRouteMapRepository,
  memoryRouteMapRepository,
} from "../../support/memory/route-map-repository.ts";
import { type MemoryRouteMapSearch, memoryRouteMapSearch } from "../../support/memory/route-map-search.ts";
import { memoryStatusRequestWindow, memoryUsageLedger } from "../../support/memory/status-requests.ts";

export interface Harness {
  routeMaps: MemoryRouteMapRepository;
  /** The search side of the same reader items (search-route-maps). */
  search: MemoryRouteMapSearch;
  carriers: { get(prefix: string): Promise<CarrierSettings | null> };
  settings: Map<string, CarrierSettings>;
  /** Status requests: memory window, deliveries, queue and usage ledger. */
  statusRequests: StatusRequestDeps;
  /** The status requests queued for delivery, in order. */
  published: StatusRequest[];
  backoff: (attempt: number) => Promise<void>;
  backoffs: number[];
  /** The raw bodies kept for support. */
  rawMessages: MemoryRawMessageStore;
  /** Ingests a Cargo-IMP body as carrier 020 at `now`. */
  imp(body: string, now: string, contentType?: string): ReturnType<typeof ingestCarrierMessage>;
}

export function harness(): Harness {
  const settings = new Map<string, CarrierSettings>();
  const published: StatusRequest[] = [];
  const enqueue = async (jobs: readonly DeliveryJob[]) => {
    for (const job of jobs) if (job.kind === "status-request") published.push(job.request);
  };
  const backoffs: number[] = [];
  const routeMaps = memoryRouteMapRepository();
  const h: Harness = {
    routeMaps,
    search: memoryRouteMapSearch(routeMaps),
    settings,
    carriers: { get: async (prefix) => settings.get(prefix) ?? null },
    published,
    statusRequests: {
      window: memoryStatusRequestWindow(),
      deliveries: memoryDeliveryRepository(),
      queue: { enqueue },
      usage: memoryUsageLedger(),
      windowSeconds: 900,
    },
    backoffs,
    rawMessages: memoryRawMessageStore(),
    backoff: async (attempt) => {
      backoffs.push(attempt);
    },
    imp: (body, now, contentType = "text/plain") =>
      ingestCarrierMessage(h, { carrierPrefix: "020", contentType, body, now }),
  };
  return h;
}

/**
 * The same harness (same stored data, counters, events) with some route-map calls replaced, so a test
 * can let another request run in between, e.g. a sendsme between ingest's read and its write.
 */
export function withRouteMaps(h: Harness, calls: Partial<RouteMapRepository>): Harness {
  const wrapped: Harness = { ...h, routeMaps: { ...h.routeMaps, ...calls } };
  wrapped.imp = (body, now, contentType = "text/plain") =>
    ingestCarrierMessage(wrapped, { carrierPrefix: "020", contentType, body, now });
  return wrapped;
}

export function carrier020(h: Harness, qualityProgram = true, xtd = true): void {
  h.settings.set("020", {
    airlinePrefix: "020",
    name: "Lufthansa Cargo",
    qualityProgram,
    xtd,
    updatedAt: "2026-01-01T00:00:00Z",
  });
}

export const OWNER: ForwarderIdentity = {
  role: "forwarder",
  forwarderId: "ACMECARGO",
  agentCode: "1234567",
  agentCass: "0001",
  agentStation: "FRA",
};
export const OTHER: ForwarderIdentity = {
  role: "forwarder",
  forwarderId: "FWD2",
  agentCode: "7654321",
  agentCass: "0042",
  agentStation: "MUC",
};

export const AWB = { prefix: "020", serial: "12345675" };

/** Received the day before the flights of 14 MAR. */
export const T0 = "2026-03-13T10:00:00.000Z";
/** Before any write: `routeMaps.snapshots(awb, EPOCH)` lists every snapshot written. */
export const EPOCH = "1970-01-01T00:00:00.000Z";

export const BKD_TWO_LEGS = `FSU/13
020-12345675HAJJFK/T10K250.0
BKD/LH9350/14MAR/HAJFRA/T10K250.0/S0600/S0930
BKD/LH400/14MAR/FRAJFK/T10K250.0/S1325/S1555
`;
export const FWB = `FWB/16
020-12345675HAJJFK/T10K250.0MC1.5
AGT//1234567/0001
`;
export const fsu = (line: string) => `FSU/13\n020-12345675HAJJFK/T10K250.0\n${line}\n`;
