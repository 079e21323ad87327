/**
 * The one structured logger (Powertools): every handler, middleware and adapter logs through it, so
 * one Lambda's lines share the service name and the keys its request-context middleware appends.
 */
import { Logger } from "@aws-lambda-powertools/logger";

export const logger = new Logger({ serviceName: "route-map-tracker" });
