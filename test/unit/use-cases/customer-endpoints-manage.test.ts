/** Issue 11 point 5: support updates and deletes customer endpoints; forwarders list their own. */
import { beforeEach, describe, expect, it } from "vitest";
import {
  EndpointInUseError,
  InvalidFieldsError,
  SubscriptionNotFoundError,
} from "../../../functions/core/errors.ts";
import { rulesUsingEndpoint, updatedCustomerEndpoint } from "../../../functions/core/notifications/index.ts";
import { deleteCustomerEndpoint } from "../../../functions/core/use-cases/delete-customer-endpoint.ts";
import { listOwnCustomerEndpoints } from "../../../functions/core/use-cases/list-own-customer-endpoints.ts";
import { updateCustomerEndpoint } from "../../../functions/core/use-cases/update-customer-endpoint.ts";
import { emailRule, endpoint, urlRule } from "../../adapters/pipeline/fakes.ts";
import { memorySubscriptionRepository } from "../../support/memory/subscription-repository.ts";
import { ENDPOINT_GUID, OWNER, XTD } from "../notifications/helpers.ts";

const NOW = "2026-03-14T12:42:00.000Z";
const URL = "https://customer.example/events";
const stored = endpoint(ENDPOINT_GUID, OWNER.forwarderId, URL);
const allowAll = { checkTarget: async () => ({ allowed: true }) as const };

describe("updatedCustomerEndpoint", () => {
  it("replaces Url, header name and value, keeps id, forwarder and creation", () => {
    const result = updatedCustomerEndpoint(
      stored,
      { Url: "https://new.example/x", HeaderName: "x-key", HeaderValue: "rotated-0002" },
      NOW,
    );
    expect(result).toEqual({
      ok: true,
      endpoint: {
        ...stored,
        url: "https://new.example/x",
        headerName: "x-key",
        headerValue: "rotated-0002",
        updatedAt: NOW,
      },
    });
  });

  it("the stored value's mask keeps it; another mask, or the mask with a new Url, is refused", () => {
    const mask = "••••6789";
    expect(
      updatedCustomerEndpoint(stored, { Url: URL, HeaderName: "apiKey", HeaderValue: mask }, NOW),
    ).toMatchObject({
      ok: true,
      endpoint: { headerValue: stored.headerValue },
    });
    for (const update of [
      { Url: URL, HeaderName: "apiKey", HeaderValue: "••••0000" },
      { Url: "https://elsewhere.example/", HeaderName: "apiKey", HeaderValue: mask },
    ]) {
      const result = updatedCustomerEndpoint(stored, update, NOW);
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors.map((e) => e.field)).toEqual(["HeaderValue"]);
    }
  });
});

describe("rulesUsingEndpoint", () => {
  it("only enabled Url rules naming that GUID (any case)", () => {
    const rules = [
      urlRule(1, OWNER, { NotifyTo: ENDPOINT_GUID.toUpperCase() }),
      urlRule(2, OWNER, { NotifyTo: ENDPOINT_GUID, Enabled: false }),
      urlRule(3, OWNER, { NotifyTo: "3f2504e0-4f89-41d3-9a0c-0305e82c3302" }),
      emailRule(4, OWNER),
    ];
    expect(rulesUsingEndpoint(rules, ENDPOINT_GUID).map((rule) => rule.id)).toEqual([1]);
  });
});

describe("the use cases", () => {
  let repo: ReturnType<typeof memorySubscriptionRepository>;
  beforeEach(async () => {
    repo = memorySubscriptionRepository();
    await repo.putCustomerEndpoint(stored);
    await repo.putCustomerEndpoint(endpoint("3f2504e0-4f89-41d3-9a0c-0305e82c3399", XTD.forwarderId, URL));
  });

  it("update: 404 for an unknown id, field errors for a bad mask, stored otherwise", async () => {
    const update = { Url: URL, HeaderName: "apiKey", HeaderValue: "rotated-0002" };
    await expect(
      updateCustomerEndpoint(
        { subscriptions: repo, targets: allowAll },
        { id: "3f2504e0-4f89-41d3-9a0c-0305e82c3300", update, now: NOW },
      ),
    ).rejects.toBeInstanceOf(SubscriptionNotFoundError);
    await expect(
      updateCustomerEndpoint(
        { subscriptions: repo, targets: allowAll },
        { id: ENDPOINT_GUID, update: { ...update, HeaderValue: "••••0000" }, now: NOW },
      ),
    ).rejects.toBeInstanceOf(InvalidFieldsError);
    await updateCustomerEndpoint(
      { subscriptions: repo, targets: allowAll },
      { id: ENDPOINT_GUID, update, now: NOW },
    );
    expect((await repo.getCustomerEndpoint(ENDPOINT_GUID))?.headerValue).toBe("rotated-0002");
  });

  it("delete: refused while an enabled rule uses it; force disables the rule, then deletes", async () => {
    await repo.putRule(urlRule(1, OWNER, { NotifyTo: ENDPOINT_GUID }));
    await repo.putRule(urlRule(2, OWNER, { NotifyTo: ENDPOINT_GUID, Enabled: false }));
    const refused = deleteCustomerEndpoint(
      { subscriptions: repo },
      { id: ENDPOINT_GUID, force: false, now: NOW },
    );
    await expect(refused).rejects.toBeInstanceOf(EndpointInUseError);
    await expect(refused).rejects.toMatchObject({ ruleIds: [1] });
    expect(await repo.getCustomerEndpoint(ENDPOINT_GUID)).not.toBeNull();

    const deleted = await deleteCustomerEndpoint(
      { subscriptions: repo },
      { id: ENDPOINT_GUID, force: true, now: NOW },
    );
    expect(deleted.disabledRules).toEqual([1]);
    expect((await repo.getRule(OWNER.forwarderId, 1))?.enabled).toBe(false);
    expect(await repo.getCustomerEndpoint(ENDPOINT_GUID)).toBeNull();
  });

  it("a forwarder's list holds only its own endpoints", async () => {
    const page = await listOwnCustomerEndpoints(
      { subscriptions: repo },
      { forwarderId: OWNER.forwarderId, page: { page: 1, pageSize: 100 } },
    );
    expect(page.items.map((e) => e.id)).toEqual([ENDPOINT_GUID]);
    expect(page.total).toBe(1);
  });
});
