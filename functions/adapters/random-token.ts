/** Unguessable link tokens (e-mail confirmation and route-map share links): 256 random bits, base64url (43 characters). */
import { randomBytes, randomUUID } from "node:crypto";

export const randomToken = (): string => randomBytes(32).toString("base64url");

/** A Standard Webhooks signing secret: `whsec_` + 32 random bytes in base64 (status requests to a Url). */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`;

/** The id of a route-map share link: a random UUID (v4). */
export const newShareLinkId = (): string => randomUUID();
