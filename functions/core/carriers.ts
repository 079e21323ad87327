/** A carrier's participation in the trigger programs (spec "What the service does", 6). */

import { maskSecret } from "./notifications/common.ts";
import {
  type CarrierPlanningConfig,
  DEFAULT_PLANNING_CONFIG,
  type PlanningOffsets,
  type RoadFeederRule,
} from "./route-map/planning-config.ts";
import { type StatusRequestSettings, statusRequestsToApi } from "./status-requests.ts";

/** Per-carrier planning configuration (DESIGN.md section 4): only what differs from the defaults. */
export interface CarrierPlanningSettings {
  /** Minutes; an absent offset keeps the default. */
  offsets: Partial<PlanningOffsets>;
  /** Flight numbers that are road-feeder (truck) legs when the message does not say. */
  roadFeederFlightNumbers: RoadFeederRule[];
}

export interface CarrierSettings {
  airlinePrefix: string;
  name: string;
  /** On the quality-program participating carriers list. */
  qualityProgram: boolean;
  /** On the XTD participating carriers list. */
  xtd: boolean;
  updatedAt: string;
  /** null/absent = default offsets and no road-feeder rule. */
  planning?: CarrierPlanningSettings | null;
  /** How the carrier receives status requests; null/absent = not configured. */
  statusRequests?: StatusRequestSettings | null;
  /** Addresses it mails Cargo-IMP from (lower-cased, each registered for one carrier); null/absent = none. */
  inboundSenders?: readonly string[] | null;
  /** The carrier's ONE Record server, whose notifications we fetch events from; null/absent = none. */
  oneRecord?: OneRecordSettings | null;
}

/** A carrier's ONE Record publisher: only IRIs under `serverUrl` are fetched, with its bearer `token`. */
export interface OneRecordSettings {
  serverUrl: string;
  /** Bearer token for GETs on the publisher; null/absent = none. */
  token?: string | null;
}

/** The planner's configuration for a carrier (defaults when it has none). */
export function planningConfigOf(carrier: CarrierSettings | null): CarrierPlanningConfig {
  const planning = carrier?.planning;
  if (!planning) return DEFAULT_PLANNING_CONFIG;
  return {
    offsets: { ...DEFAULT_PLANNING_CONFIG.offsets, ...planning.offsets },
    roadFeederFlightNumbers: planning.roadFeederFlightNumbers.map((rule) => ({ ...rule })),
  };
}

/** Spec-style casing for the support API. */
export function carrierToApi(carrier: CarrierSettings) {
  return {
    AirlinePrefix: carrier.airlinePrefix,
    Name: carrier.name,
    QualityProgram: carrier.qualityProgram,
    Xtd: carrier.xtd,
    ...(carrier.planning
      ? {
          Planning: {
            Offsets: { ...carrier.planning.offsets },
            RoadFeederFlightNumbers: carrier.planning.roadFeederFlightNumbers.map((rule) => ({
              CarrierCode: rule.carrierCode,
              Pattern: rule.pattern,
            })),
          },
        }
      : {}),
    ...(carrier.inboundSenders && carrier.inboundSenders.length > 0
      ? { InboundSenders: [...carrier.inboundSenders] }
      : {}),
    ...(carrier.statusRequests ? { StatusRequests: statusRequestsToApi(carrier.statusRequests) } : {}),
    ...(carrier.oneRecord
      ? {
          OneRecord: {
            ServerUrl: carrier.oneRecord.serverUrl,
            Token: carrier.oneRecord.token ? maskSecret(carrier.oneRecord.token) : null,
          },
        }
      : {}),
  };
}
