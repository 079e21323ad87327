/** Ports of carrier settings and the carrier gateway. */

import type { AwbId } from "../carrier-messages/types.ts";
import type { CarrierSettings } from "../carriers.ts";

/** Participating-carrier settings (carrier repository). */
export interface CarrierDirectory {
  get(prefix: string): Promise<CarrierSettings | null>;
}

/** The carrier settings store: read, and the support API's whole-record write. */
export interface CarrierRepository extends CarrierDirectory {
  put(carrier: CarrierSettings): Promise<void>;
}

/** A status request for the carrier gateway (FSR-style Cargo-IMP text on the carrier-requests queue). */
export interface CarrierStatusRequest {
  awb: AwbId;
  text: string;
  forwarderId: string;
  isXtd: boolean;
  requestedAt: string;
}

export interface CarrierRequestPublisher {
  publish(request: CarrierStatusRequest): Promise<void>;
}
