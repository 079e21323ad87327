/** Granting XTD read access on an existing route map, with optimistic concurrency. */
import type { AwbId } from "../../carrier-messages/types.ts";
import { WriteConflictError } from "../../errors.ts";
import type {
  ConflictBackoff,
  RouteMapRecord,
  RouteMapRepository,
  TriggerRecord,
} from "../../ports/route-maps.ts";
import { type Deadline, NO_DEADLINE } from "./deadline.ts";
import {
  lateCreationEvent,
  MAX_WRITE_ATTEMPTS,
  newReaders,
  nextRecord,
  searchFieldsOf,
} from "./route-map-writes.ts";

export interface GrantDeps {
  routeMaps: RouteMapRepository;
  backoff: ConflictBackoff;
}

/**
 * Adds XTD readers to an existing route map (no snapshot: the route map did not change), recording
 * `trigger` in the same transaction. A new reader of a planned route map gets its RMP Creation from
 * this write (DESIGN.md section 9 "Owners learn late"), unless it already reads it as the owner.
 * When every forwarder already reads it, the route map is left as it is and `trigger` is recorded
 * alone: repeated sendsme of a reader do not race each other for a new version of the route map.
 * Returns the record as written (or as it stands), or null when the AWB has no route map. Each
 * attempt is one step of `deadline`.
 */
export async function grantXtdAccess(
  deps: GrantDeps,
  awb: AwbId,
  forwarderIds: readonly string[],
  now: string,
  trigger?: TriggerRecord,
  deadline: Deadline = NO_DEADLINE,
): Promise<RouteMapRecord | null> {
  for (let attempt = 1; attempt <= MAX_WRITE_ATTEMPTS; attempt++) {
    const outcome = await deadline.step(() => grantOnce(deps, awb, forwarderIds, now, trigger));
    if (outcome !== "conflict") return outcome;
    await deps.backoff(attempt);
  }
  throw new WriteConflictError(awb);
}

/** One read and at most one write: the record as written or as it stands, null, or "conflict". */
async function grantOnce(
  deps: GrantDeps,
  awb: AwbId,
  forwarderIds: readonly string[],
  now: string,
  trigger: TriggerRecord | undefined,
): Promise<RouteMapRecord | null | "conflict"> {
  const previous = await deps.routeMaps.get(awb);
  if (!previous) return null;
  const missing = forwarderIds.filter((id) => !previous.xtdForwarders.includes(id));
  if (missing.length === 0) {
    if (trigger) await deps.routeMaps.putTrigger(trigger, { onlyWithoutRouteMap: false });
    return previous;
  }
  const { record, map } = nextRecord(previous, previous.state, now, [
    ...previous.xtdForwarders,
    ...forwarderIds,
  ]);
  const readers = newReaders(previous, record);
  // The owner asking for XTD on its own AWB (served with a note) already heard the creation.
  const ownerAsking =
    trigger !== undefined &&
    previous.ownerAgent !== null &&
    previous.ownerAgent.code === trigger.agent.code &&
    previous.ownerAgent.cass === trigger.agent.cass;
  const heard = readers
    ? {
        ownerAgent: null,
        xtdForwarders: readers.xtdForwarders.filter((id) => !(ownerAsking && id === trigger?.forwarderId)),
      }
    : null;
  const late = lateCreationEvent(record, heard?.xtdForwarders.length ? heard : null, [], now);
  const outcome = await deps.routeMaps.write({
    previous,
    next: record,
    snapshot: null,
    events: late ? [late] : [],
    searchFields: searchFieldsOf(map),
    ...(trigger ? { trigger } : {}),
  });
  return outcome === "written" ? record : "conflict";
}
