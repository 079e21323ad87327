/** GET /support/carriers/{prefix}/inbound?Limit=&Cursor=: the carrier's received mails, newest first. */
import {
  type ListCarrierInboundMailDeps,
  listCarrierInboundMail,
} from "../../core/use-cases/list-carrier-inbound-mail.ts";
import { prefixFromPath } from "../../http/params.ts";
import { httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { SUPPORT_CARRIER_ROUTES } from "../../http/routes/support-carriers.ts";
import { inboundMailEntryBody } from "../../http/schemas/inbound-mail.ts";
import { cursorPagedBody } from "../../http/schemas/tenants.ts";
import { carriers, httpPipeline, inboundMailLog } from "../../wiring.ts";

// The schemas this route parses with, declared once with its docs.
const api = SUPPORT_CARRIER_ROUTES["list-carrier-inbound-mail"];

export const make = (deps: () => ListCarrierInboundMailDeps, pipeline?: Pipeline) =>
  httpRoute(
    "list-carrier-inbound-mail",
    {
      params: { prefix: prefixFromPath },
      query: api.query,
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
