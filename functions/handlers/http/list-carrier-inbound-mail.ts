/** GET /support/carriers/{prefix}/inbound?Limit=&Cursor=: the carrier's received mails, newest first. */
import {
  type ListCarrierInboundMailDeps,
  listCarrierInboundMail,
} from "../../core/use-cases/list-carrier-inbound-mail.ts";
import { prefixFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { inboundMailEntryBody } from "../../http/schemas/inbound-mail.ts";
import { cursorPagedBody, TenantPageRequestSchema } from "../../http/schemas/tenants.ts";
import { carriers, httpPipeline, inboundMailLog } from "../../wiring.ts";

export const make = (deps: () => ListCarrierInboundMailDeps, pipeline?: Pipeline) =>
  httpRoute(
    "list-carrier-inbound-mail",
    {
      params: { prefix: prefixFromPath },
      query: TenantPageRequestSchema,
    },
    pipeline,
  ).handle(async ({ params, query }) => ({
    status: 200,
    body: cursorPagedBody(
      await listCarrierInboundMail(deps(), { prefix: params.prefix, page: query }),
      inboundMailEntryBody,
    ),
  }));

export const handler = make(() => ({ carriers: carriers(), inboundLog: inboundMailLog() }), httpPipeline);
