/** GET /support/carriers/{prefix}/messages/{id}: the raw message of a receipt, for support. */
import { getCarrierMessage } from "../../core/use-cases/get-carrier-message.ts";
import { prefixFromPath, receiptIdFromPath } from "../../http/params.ts";
import { type DepsOf, httpRoute, type Pipeline } from "../../http/pipeline.ts";
import { carrierMessageBody } from "../../http/schemas/carriers.ts";
import { httpPipeline, rawMessages } from "../../wiring.ts";

export const make = (deps: () => DepsOf<typeof getCarrierMessage>, pipeline?: Pipeline) =>
  httpRoute(
    "get-carrier-message",
    { params: { prefix: prefixFromPath, id: receiptIdFromPath } },
    pipeline,
  ).handle(async ({ params }) => ({
    status: 200,
    body: carrierMessageBody(
      await getCarrierMessage(deps(), { carrierPrefix: params.prefix, receiptId: params.id }),
    ),
  }));

export const handler = make(() => ({ rawMessages: rawMessages() }), httpPipeline);
