/**
 * The consignment totals (pieces, weight, volume): bookings and FWBs set them, status messages only
 * fill them in while absent; after the plan exists a changed total is a replan.
 */
import type { Quantity } from "../carrier-messages/types.ts";
import type { StepOutcome } from "./apply-step.ts";
import { isPlanned } from "./derive.ts";
import type { ShipmentState } from "./shipment-state.ts";

export function cloneQuantity(q: Quantity | null): Quantity | null {
  return q ? { ...q } : null;
}

/** New values win; a field the new message leaves out keeps the old value. */
function mergeQuantity(old: Quantity, next: Quantity): Quantity {
  return {
    pieces: next.pieces,
    weightCode: next.weight !== null ? next.weightCode : old.weightCode,
    weight: next.weight ?? old.weight,
    volumeCode: next.volume !== null ? next.volumeCode : old.volumeCode,
    volume: next.volume ?? old.volume,
  };
}

/** A value given for the first time (volume only on the FWB) fills in; only a different value is a change. */
function quantityChanged(old: Quantity, next: Quantity): boolean {
  return (
    old.pieces !== next.pieces ||
    (old.weight !== null && old.weight !== next.weight) ||
    (old.volume !== null && old.volume !== next.volume)
  );
}

/**
 * Bookings and FWBs carry the consignment totals; after the plan exists a change of pieces, weight or
 * volume is a replan (route map IsReplanned, RMP Replan). Status messages only fill totals in.
 */
export function updateTotals(
  state: ShipmentState,
  total: Quantity | null,
  authoritative: boolean,
  outcome: StepOutcome,
): void {
  if (!total) return;
  if (!state.total) {
    state.total = cloneQuantity(total);
    return;
  }
  if (!authoritative) return;
  const merged = mergeQuantity(state.total, total);
  if (quantityChanged(state.total, merged) && isPlanned(state)) {
    state.isReplanned = true;
    outcome.routeMapChanged = true;
  }
  state.total = merged;
}
