/**
 * A share link is stored under its token's SHA-256, never the token: shared by the DynamoDB
 * repository and the tests' memory one, in a leaf that loads no AWS SDK.
 */
import { createHash } from "node:crypto";

export const shareTokenHash = (token: string): string => createHash("sha256").update(token).digest("hex");
