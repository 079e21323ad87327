/** Route-map share links: the POST body and the answers. */
import * as v from "valibot";
import { MAX_SHARE_HOURS, MIN_SHARE_HOURS } from "../../core/route-map/share-links.ts";
import { plainObject } from "./plain-object.ts";

export const ShareRequestSchema = plainObject(
  v.object({
    ExpiresInHours: v.pipe(
      v.number("must be a whole number of hours"),
      v.integer("must be a whole number of hours"),
      v.minValue(MIN_SHARE_HOURS, `must be at least ${MIN_SHARE_HOURS}`),
      v.maxValue(MAX_SHARE_HOURS, `must be at most ${MAX_SHARE_HOURS} (30 days)`),
    ),
  }),
);

const UtcStamp = v.pipe(v.string(), v.description("UTC, e.g. 2026-11-22T10:05:00Z"));

export const CreatedShareSchema = v.object({
  Id: v.pipe(v.string(), v.description("The link's id (for DELETE .../share/{Id})")),
  Url: v.pipe(v.string(), v.description("The read-only, sign-in-free link; shown only in this answer")),
  ExpiresAt: UtcStamp,
});

export const ShareListSchema = v.object({
  Items: v.array(v.object({ Id: v.string(), ExpiresAt: UtcStamp, CreatedAt: UtcStamp })),
});

export const SharedLinkSchema = v.object({
  SharedBy: v.pipe(
    v.string(),
    v.description("The forwarder that shared the route map: its Name, else its ForwarderIdentifier"),
  ),
  ExpiresAt: UtcStamp,
});
