/** GET /support/inbound/unknown-senders?Limit=&Cursor=: mail from unregistered senders, newest first. */
import {
  type ListUnknownSenderMailDeps,
  listUnknownSenderMail,
} from "../../core/use-cases/list-unknown-sender-mail.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { SUPPORT_CARRIER_ROUTES } from "../../http/routes/support-carriers.ts";
import { inboundMailEntryBody } from "../../http/schemas/inbound-mail.ts";
import { cursorPagedBody } from "../../http/schemas/tenants.ts";
import { httpPipeline, inboundMailLog } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = SUPPORT_CARRIER_ROUTES["list-unknown-sender-mail"];

export const make = (deps: () => ListUnknownSenderMailDeps, pipeline?: Pipeline) =>
  httpRoute("list-unknown-sender-mail", { query: api.query }, pipeline).handle(async ({ query }) => ({
    status: 200,
    body: cursorPagedBody(await listUnknownSenderMail(deps(), query), inboundMailEntryBody),
  }));

export const handler = make(() => ({ inboundLog: inboundMailLog() }), httpPipeline);
