/** GET /support/inbound/unknown-senders?Limit=&Cursor=: mail from unregistered senders, newest first. */
import {
  type ListUnknownSenderMailDeps,
  listUnknownSenderMail,
} from "../../core/use-cases/list-unknown-sender-mail.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { inboundMailEntryBody } from "../../http/schemas/inbound-mail.ts";
import { cursorPagedBody, TenantPageRequestSchema } from "../../http/schemas/tenants.ts";
import { httpPipeline, inboundMailLog } from "../../wiring.ts";

export const make = (deps: () => ListUnknownSenderMailDeps, pipeline?: Pipeline) =>
  httpRoute("list-unknown-sender-mail", { query: TenantPageRequestSchema }, pipeline).handle(
    async ({ query }) => ({
      status: 200,
      body: cursorPagedBody(await listUnknownSenderMail(deps(), query), inboundMailEntryBody),
    }),
  );

export const handler = make(() => ({ inboundLog: inboundMailLog() }), httpPipeline);
