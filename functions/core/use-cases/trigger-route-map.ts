/**
 * POST /ffw/service/routemap/sendsme (spec "What the service does", 6; DESIGN.md section 9 Ownership).
 * Quality program (IsXTD absent/false): the carrier is on the quality-program list and the caller owns
 * the AWB; before the FWB names an owner the trigger is recorded as pending and grants nothing. XTD:
 * the carrier is on the XTD list; the caller may read the route map and its events match the caller's
 * rules at once (a grant stored before the route map exists applies when it is created). Every
 * accepted trigger asks the carrier for a status (FSR): a status request delivered through the carrier's
 * StatusRequests channel by the delivery pipeline, repeats within the collapse window folded into one,
 * XTD triggers counted in the forwarder's usage ledger (shared/status-requests.ts).
 *
 * Concurrent sendsme of one AWB: a forwarder that already reads the AWB records its trigger alone (no
 * new version of the route map to race for); the grant itself and the ledger retry their lost races.
 * With `timeLeftMs` (the Lambda's remaining time) no step starts without time for it and the answer
 * (shared/deadline.ts): a request that runs out is answered 409 with Retry-After before the function is
 * cut off. The ledger entry is the last step, so the ledger counts exactly the requests answered 200.
 */
import { formatAwb } from "../awb.ts";
import type { AwbId } from "../carrier-messages/types.ts";
import { TriggerRefusedError, WriteConflictError } from "../errors.ts";
import type { ForwarderIdentity } from "../identity.ts";
import type { CarrierDirectory } from "../ports/carriers.ts";
import type {
  ConflictBackoff,
  RouteMapRepository,
  RouteMapView,
  TriggerRecord,
} from "../ports/route-maps.ts";
import { type Deadline, deadlineOf } from "./shared/deadline.ts";
import { currentRouteMapJson, mayRead, sameAgent } from "./shared/read-access.ts";
import { MAX_WRITE_ATTEMPTS } from "./shared/route-map-writes.ts";
import { requestCarrierStatus, type StatusRequestDeps } from "./shared/status-requests.ts";
import { grantXtdAccess } from "./shared/xtd-grants.ts";

export interface TriggerRouteMapDeps {
  routeMaps: RouteMapRepository;
  carriers: CarrierDirectory;
  statusRequests: StatusRequestDeps;
  backoff: ConflictBackoff;
}

export interface TriggerRouteMapInput {
  reader: ForwarderIdentity;
  awb: AwbId;
  agentCode: string;
  agentCass: string;
  isXtd: boolean;
  now: string;
  /** Milliseconds this request may still run (the Lambda's remaining time); absent = no deadline. */
  timeLeftMs?: () => number;
}

export type TriggerRouteMapResult =
  | { kind: "route-map"; routeMapJson: string; note: string | null }
  | { kind: "requested"; awb: AwbId; note: string | null };

export const OWNER_XTD_NOTE =
  "You own this AWB: an XTD request is not needed for it (additional costs apply to XTD requests).";

export async function triggerRouteMap(
  deps: TriggerRouteMapDeps,
  input: TriggerRouteMapInput,
): Promise<TriggerRouteMapResult> {
  const { reader, awb } = input;
  const deadline = deadlineOf(
    input.timeLeftMs,
    awb,
    `time ran out before the sendsme for AWB ${formatAwb(awb)} could be completed (many requests for the AWB at once); nothing was counted, send it again`,
  );
  if (input.agentCode !== reader.agentCode || input.agentCass !== reader.agentCass) {
    throw new TriggerRefusedError(
      "agent-mismatch",
      "AgentCode and AgentCass must be those of your own token.",
    );
  }
  const carrier = await deadline.step(() => deps.carriers.get(awb.prefix));
  const onList = input.isXtd ? carrier?.xtd === true : carrier?.qualityProgram === true;
  if (!onList) {
    const list = input.isXtd ? "XTD" : "quality-program";
    throw new TriggerRefusedError(
      "carrier-not-participating",
      `Carrier ${awb.prefix} is not on the ${list} participating carriers list.`,
    );
  }

  const trigger: TriggerRecord = {
    awb,
    program: input.isXtd ? "XTD" : "QP",
    forwarderId: reader.forwarderId,
    agent: { code: reader.agentCode, cass: reader.agentCass },
    requestedAt: input.now,
  };
  let view: RouteMapView | null = await deadline.step(() => deps.routeMaps.getView(awb));
  let note: string | null = null;
  if (!input.isXtd) {
    if (view?.ownerAgent && !sameAgent(view.ownerAgent, reader)) {
      throw new TriggerRefusedError(
        "not-owner",
        `You are not the owner of AWB ${formatAwb(awb)}: the FWB names another agent. Use an XTD request (IsXTD true) instead.`,
      );
    }
    // Before the FWB this is a pending request: it grants nothing by itself.
    await deadline.step(() => deps.routeMaps.putTrigger(trigger, { onlyWithoutRouteMap: false }));
  } else {
    if (view && sameAgent(view.ownerAgent, reader)) note = OWNER_XTD_NOTE;
    view = await recordXtdTrigger(deps, trigger, view !== null, deadline);
  }

  // Read before the status request: its ledger entry is the last step before the answer.
  const readable = view !== null && mayRead(view, reader);
  const routeMapJson =
    view !== null && readable
      ? await deadline.step(() => currentRouteMapJson(view, input.now, () => deps.routeMaps.get(awb)))
      : null;

  await requestCarrierStatus(
    deps.statusRequests,
    {
      awb,
      origin: view?.origin ?? null,
      destination: view?.destination ?? null,
      forwarderId: reader.forwarderId,
      isXtd: input.isXtd,
      now: input.now,
    },
    { deadline, backoff: deps.backoff },
  );

  if (routeMapJson !== null) return { kind: "route-map", routeMapJson, note };
  return { kind: "requested", awb, note };
}

/**
 * Grants on the existing route map, or stores the grant for when it is created (race-free: the
 * creation is conditioned on the stored grants). "route-map-exists" can also be a transaction
 * conflict with a creation that then failed, so the rounds go on until one side holds the grant.
 */
async function recordXtdTrigger(
  deps: TriggerRouteMapDeps,
  trigger: TriggerRecord,
  exists: boolean,
  deadline: Deadline,
): Promise<RouteMapView | null> {
  for (let round = 1; round <= MAX_WRITE_ATTEMPTS; round++) {
    const grantFirst = exists || round > 1;
    if (grantFirst) {
      const granted = await grantXtdAccess(
        deps,
        trigger.awb,
        [trigger.forwarderId],
        trigger.requestedAt,
        trigger,
        deadline,
      );
      if (granted) return granted;
    }
    const stored = await deadline.step(() =>
      deps.routeMaps.putTrigger(trigger, { onlyWithoutRouteMap: true }),
    );
    if (stored === "written") return null;
    // No route map to grant on, yet the trigger was refused: it lost to a creation that failed.
    if (grantFirst) await deps.backoff(round);
  }
  throw new WriteConflictError(trigger.awb);
}
