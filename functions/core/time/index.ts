/** Station time zones and station-local time resolution. */
export {
  addMinutes,
  earlierUtc,
  formatUtc,
  InvalidStationTimeError,
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
export { requireStationTimeZone, stationTimeZone, UnknownStationError } from "./time-zones.ts";
