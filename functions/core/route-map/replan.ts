/**
 * Replan detection: installing a new itinerary (or a new AWB origin or destination) recomputes the
 * planned milestones and tells which of them moved, whether the flights changed (RoutingIsReplanned)
 * and whether the route map changed at all (RMP Replan). A booking that changes the itinerary after
 * a cancellation books the shipment again.
 */
import type { MilestoneName } from "../carrier-messages/types.ts";
import { canonical, type StepOutcome } from "./apply-step.ts";
import {
  actualsByKey,
  computePlannedTimes,
  displayLegs,
  flightIdentity,
  isPlanned,
  judgeMilestone,
  milestoneKey,
} from "./derive.ts";
import type { CarrierPlanningConfig } from "./planning-config.ts";
import type { PlannedLeg, PlannedMilestone, ShipmentState } from "./shipment-state.ts";

/** Origin and destination milestones carry the AWB's station in their key (`FRA:RCS`). */
const ORIGIN_NAMES: ReadonlySet<string> = new Set(["FWB", "LAT", "RCS"]);
const DESTINATION_NAMES: ReadonlySet<string> = new Set(["NFD", "AWD", "DLV"]);

/**
 * Installs a new itinerary (or new AWB origin/destination, `before` being the old ones) and re-plans:
 * milestones whose planned time moved, or whose leg now flies another flight, are marked IsReplanned
 * with the status they had just before (ArchivedStatus). A milestone that only changed station with
 * the AWB origin or destination keeps its flags under its new key.
 */
export function replan(
  state: ShipmentState,
  legs: PlannedLeg[],
  config: CarrierPlanningConfig,
  receivedAt: string,
  outcome: StepOutcome,
  before: { origin: string; destination: string } = state,
): void {
  const itineraryChanged = canonical(legs) !== canonical(state.legs);
  if (!itineraryChanged && before.origin === state.origin && before.destination === state.destination) return;
  const wasPlanned = isPlanned(state);
  const oldView = { ...state, origin: before.origin, destination: before.destination };
  const oldActuals = actualsByKey(oldView, displayLegs(state));
  const oldKeyOf = (key: string, name: MilestoneName) =>
    ORIGIN_NAMES.has(name)
      ? milestoneKey(before.origin, name)
      : DESTINATION_NAMES.has(name)
        ? milestoneKey(before.destination, name)
        : key;
  const oldFlightByStation = new Map(state.legs.map((l) => [l.origin, flightIdentity(l)]));
  const flightsChanged =
    state.legs.length > 0 &&
    (state.legs.length !== legs.length ||
      state.legs.some((l, i) => flightIdentity(l) !== flightIdentity(legs[i] ?? l)));
  const changedLegStations = new Set(
    legs.filter((l) => oldFlightByStation.get(l.origin) !== flightIdentity(l)).map((l) => l.origin),
  );

  const plannedTimes = computePlannedTimes(legs, state.origin, state.destination, config);
  const planned: Record<string, PlannedMilestone> = {};
  for (const [key, time] of Object.entries(plannedTimes)) {
    const oldKey = oldKeyOf(key, time.name);
    const old = state.planned[oldKey];
    if (!old) {
      // A milestone that only exists in the new plan is itself a product of the replan.
      planned[key] = { ...time, isReplanned: wasPlanned, archivedStatus: null };
      outcome.movedKeys.push(key);
      continue;
    }
    const routing = time.name === "DEP" || time.name === "ARR" || time.name === "RCF";
    const legStation = key.slice(0, key.indexOf(":"));
    const moved = old.plannedUtc !== time.plannedUtc || (routing && changedLegStations.has(legStation));
    if (moved) outcome.movedKeys.push(key);
    planned[key] = moved
      ? {
          ...time,
          isReplanned: true,
          archivedStatus: judgeMilestone(old.plannedUtc, oldActuals.get(oldKey)?.atUtc ?? null, receivedAt),
        }
      : { ...time, isReplanned: old.isReplanned, archivedStatus: old.archivedStatus };
  }

  if (wasPlanned && (flightsChanged || canonical(planned) !== canonical(state.planned))) {
    outcome.routeMapChanged = true;
  }
  if (wasPlanned && flightsChanged) state.routingIsReplanned = true;
  state.legs = legs;
  state.planned = planned;
  // A booking that changes the itinerary after a cancellation books the shipment again.
  if (state.cancelled && itineraryChanged) {
    state.cancelled = null;
    outcome.routeMapChanged = true;
  }
}
