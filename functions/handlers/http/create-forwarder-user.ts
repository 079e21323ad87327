/**
 * POST /support/forwarders/{id}/users: a person who signs in to the web app for the forwarder: 201
 * { UserId, Email, ForwarderId, CreatedAt }. In AWS Cognito mails the invitation.
 */
import { nowIso } from "../../adapters/clock.ts";
import { createForwarderUser, type ForwarderUserDeps } from "../../core/use-cases/create-forwarder-user.ts";
import { forwarderIdFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { SUPPORT_FORWARDER_ROUTES } from "../../http/routes/support-forwarders.ts";
import { forwarderUserBody } from "../../http/schemas/forwarder-users.ts";
import { forwarderUserDirectory, forwarderUsers, httpPipeline, tenants } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = SUPPORT_FORWARDER_ROUTES["create-forwarder-user"];

export const make = (deps: () => ForwarderUserDeps, pipeline?: Pipeline) =>
  httpRoute(
    "create-forwarder-user",
    {
      body: api.body.schema,
      params: { id: forwarderIdFromPath },
    },
    pipeline,
  ).handle(async ({ body, params }) => {
    const input = { forwarderId: params.id, email: body.Email, now: nowIso() };
    return { status: 201, body: forwarderUserBody(await createForwarderUser(deps(), input)) };
  });

export const handler = make(
  () => ({
    tenants: tenants(),
    users: forwarderUsers(),
    directory: forwarderUserDirectory(),
  }),
  httpPipeline,
);
