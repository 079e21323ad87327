/** Station time zones and station-local time resolution. */

export { InvalidStationTimeError, UnknownStationError } from "../errors.ts";
export {
  addMinutes,
  earlierUtc,
  formatUtc,
  laterUtc,
  localToUtcMs,
  nearestYear,
  normaliseUtc,
  parseUtc,
  resolveStationTime,
  stationTimeAt,
  toPair,
  zoneOffsetMs,
} from "./station-time.ts";
export { requireStationTimeZone, stationTimeZone } from "./time-zones.ts";
