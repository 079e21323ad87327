/** The pure route-map core: apply carrier reports, render the spec's route map, scheduled checks. */

export { ShipmentMismatchError } from "../errors.ts";
export { type ApplyContext, type ApplyResult, applyReport, assertPlaceable } from "./apply-report.ts";
export { milestoneKey } from "./derive.ts";
export {
  checkDueAt,
  type DueCheck,
  type DueCheckInput,
  type DueCheckKind,
  dueChecks,
  isAwaited,
  type MarkMissingResult,
  type MarkProActiveResult,
  markMissing,
  markProActive,
  missingCheckAt,
  type ProActiveEventDraft,
  proActiveCheckAt,
  proActiveEventDraft,
  proActiveKey,
} from "./due-checks.ts";
export {
  buildMilestoneEventDraft,
  buildRouteMapEventDraft,
  type MilestoneEventInput,
} from "./event-drafts.ts";
export {
  type CarrierPlanningConfig,
  DEFAULT_PLANNING_CONFIG,
  DEFAULT_PLANNING_OFFSETS,
  isRoadFeederLeg,
  type PlanningOffsets,
  type RoadFeederRule,
} from "./planning-config.ts";
export { flightDate, isSimpleRouteMap, renderRouteMap, toTotals } from "./render.ts";
export type { PlannedLeg, PlannedMilestone, ShipmentState, StoredStatus } from "./shipment-state.ts";
export { SHIPMENT_STATE_SCHEMA_VERSION } from "./shipment-state.ts";
