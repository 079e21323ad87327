/** Unguessable link tokens (e-mail confirmation links): 256 random bits, base64url (43 characters). */
import { randomBytes } from "node:crypto";

export const randomToken = (): string => randomBytes(32).toString("base64url");

/** A Standard Webhooks signing secret: `whsec_` + 32 random bytes in base64 (status requests to a Url). */
export const newSigningSecret = (): string => `whsec_${randomBytes(32).toString("base64")}`;
