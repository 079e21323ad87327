/**
 * What every step of applying a report shares: the context it runs in, what it returns, what it
 * found out (turned into events at the end), the state a first report starts from, and the
 * key-order independent comparison that tells a repeat and an unchanged plan.
 */
import type { CarrierReport } from "../carrier-messages/types.ts";
import type { DomainEventDraft } from "../events.ts";
import type { CarrierPlanningConfig } from "./planning-config.ts";
import type { Receipt } from "./provenance.ts";
import { SHIPMENT_STATE_SCHEMA_VERSION, type ShipmentState } from "./shipment-state.ts";

export interface ApplyContext {
  /** When the message was received, ISO UTC. */
  receivedAt: string;
  /** The reporting carrier's planning configuration (DEFAULT_PLANNING_CONFIG when none). */
  carrier: CarrierPlanningConfig;
  /** The receipt the report came in (its channel and id), kept as each actual's provenance; absent in tests. */
  receipt?: Receipt;
}

export interface ApplyResult {
  state: ShipmentState;
  /** false: nothing to store, no events (a repeat, or a report that says nothing new). */
  changed: boolean;
  events: DomainEventDraft[];
  /**
   * true when only the history beyond the route map changed (a status message beyond the milestones):
   * the route map, its LastUpdate and events are as before, so the write keeps no snapshot.
   */
  historyOnly?: boolean;
}

/** What one apply step found out, turned into events at the end (one RMP per report at most). */
export interface StepOutcome {
  events: DomainEventDraft[];
  routeMapChanged: boolean;
  /** Milestone keys a replan created or moved. */
  movedKeys: string[];
}

/** The state a first report starts from: its AWB and stations, nothing planned or reported yet. */
export function emptyState(report: CarrierReport, receivedAt: string): ShipmentState {
  return {
    schemaVersion: SHIPMENT_STATE_SCHEMA_VERSION,
    awb: { prefix: report.awb.prefix, serial: report.awb.serial },
    origin: report.origin,
    destination: report.destination,
    total: null,
    productCode: null,
    agent: null,
    createdAt: receivedAt,
    lastUpdate: receivedAt,
    fwbReceivedAt: null,
    cancelled: null,
    legs: [],
    planned: {},
    routingIsReplanned: false,
    isReplanned: false,
    statuses: [],
    missed: [],
  };
}

/** Key-order independent comparison (a state read back from DynamoDB may order keys differently). */
export function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}
