/**
 * A shipment for the e-mail tests, built by the real ingest use case: LH400 FRA→JFK booked
 * (STD 13:25 CET, STA 15:55 EDT on 14 March), the FWB naming the owner agent, RCS at 09:10 and the DEP
 * at 14:40 CET (planned 14:25: 15 min late).
 */
import type { AwbId } from "../../../functions/core/carrier-messages/types.ts";
import type { DomainEvent } from "../../../functions/core/events.ts";
import { renderRouteMap } from "../../../functions/core/route-map/render.ts";
import type { RouteMap } from "../../../functions/core/route-map/spec-types.ts";
import { carrier020, type Harness, harness } from "../use-cases/support.ts";
import { OWNER } from "./helpers.ts";

export const AWB: AwbId = { prefix: "020", serial: "12345675" };
const TEXT = "020-12345675";
/** Shortly after the DEP: ARR and later are neither due nor reported. */
export const AFTER_DEP = "2026-03-14T13:45:00Z";

export const MESSAGES: ReadonlyArray<[body: string, receivedAt: string]> = [
  [`FSU/13\n${TEXT}FRAJFK/T10K250.0\nBKD/LH400/14MAR/FRAJFK/T10K250.0/S1325/S1555\n`, "2026-03-13T08:00:00Z"],
  [
    `FWB/16\n${TEXT}FRAJFK/T10K250.0MC1.5\nAGT//${OWNER.agentCode}/${OWNER.agentCass}\n/ACME FORWARDING\n`,
    "2026-03-14T06:00:00Z",
  ],
  [`FSU/13\n${TEXT}FRAJFK/T10K250.0\nRCS/14MAR0910/FRA/T10K250.0\n`, "2026-03-14T08:10:00Z"],
  [`FSU/13\n${TEXT}FRAJFK/T10K250.0\nDEP/LH400/14MAR/FRAJFK/T10K250.0/A1440\n`, "2026-03-14T13:41:00Z"],
];

export interface Shipped {
  h: Harness;
  /** The DEP event as the outbox holds it. */
  dep: DomainEvent;
  /** The route map as of AFTER_DEP. */
  routeMap: RouteMap;
}

export async function shipped(): Promise<Shipped> {
  const h = harness();
  carrier020(h);
  for (const [body, receivedAt] of MESSAGES) await h.imp(body, receivedAt);
  const dep = h.routeMaps.events.find((event) => event.name === "DEP");
  const record = await h.routeMaps.get(AWB);
  if (!dep || !record) throw new Error("fixture shipment not ingested");
  return { h, dep, routeMap: renderRouteMap(record.state, AFTER_DEP) };
}
