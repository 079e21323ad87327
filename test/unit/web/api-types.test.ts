/**
 * The answer types the web app reads (functions/contracts/api-bodies.ts, the route-map spec types)
 * are the ones the API documents and builds: each is held to the OpenAPI document's schema and to
 * the handlers' mapping. Checked by the type checker (`npx tsc --noEmit`); type-only imports, so the
 * run imports nothing of the service.
 */
import type * as v from "valibot";
import { describe, expectTypeOf, it } from "vitest";
import type {
  CreatedShareResponse,
  CustomerEndpointResponse,
  DeliveryResponse,
  NotificationRuleResponse,
  PagedResponse,
  ReplayResponse,
  ShareListItem,
  WebhookLastDelivery,
  WebhookResponse,
  WebhookViewResponse,
} from "../../../functions/contracts/api-bodies.ts";
import type {
  RouteMap,
  RouteMapHistory,
  RouteMapSearchResult,
} from "../../../functions/core/route-map/spec-types.ts";
import type {
  CustomerEndpointResponseSchema,
  DeliverySchema,
  deliveryBody,
  lastDeliveryBody,
  NotificationRuleResponseSchema,
  ReplayResponseSchema,
  WebhookResponseSchema,
} from "../../../functions/http/schemas/notifications.ts";
import type { pagedBody } from "../../../functions/http/schemas/paging.ts";
import type {
  RouteMapHistorySchema,
  RouteMapSchema,
  RouteMapSearchResultSchema,
} from "../../../functions/http/schemas/route-maps.ts";
import type { CreatedShareSchema, ShareListSchema } from "../../../functions/http/schemas/share-links.ts";

/** An intersection as one object type, which the equality check compares member by member. */
type Flat<T> = { [K in keyof T]: T[K] };

describe("the API's answer types", () => {
  it("notification rules, webhooks, customer endpoints: as documented", () => {
    expectTypeOf<
      v.InferOutput<typeof NotificationRuleResponseSchema>
    >().toEqualTypeOf<NotificationRuleResponse>();
    // One schema documents both answers: POST and PUT without LastDelivery, GET and list with it.
    expectTypeOf<v.InferOutput<typeof WebhookResponseSchema>>().toEqualTypeOf<
      Flat<WebhookResponse & Partial<Pick<WebhookViewResponse, "LastDelivery">>>
    >();
    expectTypeOf<ReturnType<typeof lastDeliveryBody>>().toEqualTypeOf<WebhookLastDelivery | null>();
    expectTypeOf<
      v.InferOutput<typeof CustomerEndpointResponseSchema>
    >().toEqualTypeOf<CustomerEndpointResponse>();
  });

  it("the delivery log and its replay: as documented and as mapped", () => {
    expectTypeOf<v.InferOutput<typeof DeliverySchema>>().toEqualTypeOf<DeliveryResponse>();
    expectTypeOf<ReturnType<typeof deliveryBody>>().toEqualTypeOf<DeliveryResponse>();
    expectTypeOf<v.InferOutput<typeof ReplayResponseSchema>>().toEqualTypeOf<ReplayResponse>();
  });

  it("paging and share links: as documented and as mapped", () => {
    expectTypeOf<ReturnType<typeof pagedBody<number, string>>>().toEqualTypeOf<PagedResponse<string>>();
    expectTypeOf<v.InferOutput<typeof CreatedShareSchema>>().toEqualTypeOf<CreatedShareResponse>();
    expectTypeOf<v.InferOutput<typeof ShareListSchema>>().toEqualTypeOf<{ Items: ShareListItem[] }>();
  });

  it("the route map, its history and the search answer: as documented", () => {
    expectTypeOf<v.InferOutput<typeof RouteMapSchema>>().toEqualTypeOf<RouteMap>();
    expectTypeOf<v.InferOutput<typeof RouteMapHistorySchema>>().toEqualTypeOf<RouteMapHistory>();
    expectTypeOf<v.InferOutput<typeof RouteMapSearchResultSchema>>().toEqualTypeOf<RouteMapSearchResult>();
  });
});
