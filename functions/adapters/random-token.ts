/** Unguessable link tokens (e-mail confirmation links): 256 random bits, base64url (43 characters). */
import { randomBytes } from "node:crypto";

export const randomToken = (): string => randomBytes(32).toString("base64url");
