/**
 * People who sign in for a forwarder (the web app): the request body of
 * POST /support/forwarders/{id}/users and the answers (PascalCase, like the rest of the API).
 */
import * as v from "valibot";
import type { ForwarderUser } from "../../core/ports/tenants.ts";
import { plainObject } from "./plain-object.ts";

export const ForwarderUserRequestSchema = plainObject(
  v.object({
    Email: v.pipe(
      v.string(),
      v.trim(),
      v.maxLength(254, "at most 254 characters"),
      v.email("must be an e-mail address"),
      // One sign-in per address, whatever its case.
      v.toLowerCase(),
    ),
  }),
);

export const ForwarderUserResponseSchema = v.object({
  UserId: v.pipe(v.string(), v.description("The identity provider's id of the user (Cognito's sub).")),
  Email: v.string(),
  ForwarderId: v.string(),
  CreatedAt: v.string(),
});

export const forwarderUserBody = (
  user: ForwarderUser,
): v.InferOutput<typeof ForwarderUserResponseSchema> => ({
  UserId: user.userId,
  Email: user.email,
  ForwarderId: user.forwarderId,
  CreatedAt: user.createdAt,
});
