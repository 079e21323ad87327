/** Route-map share links: create, list, revoke and the public read, over memory adapters. */
import { describe, expect, it } from "vitest";
import {
  RouteMapNotFoundError,
  ShareLinkLimitError,
  ShareLinkNotFoundError,
} from "../../../functions/core/errors.ts";
import { sharedRouteMapJson } from "../../../functions/core/route-map/share-links.ts";
import {
  createRouteMapShare,
  secondsToNextUtcDay,
} from "../../../functions/core/use-cases/create-route-map-share.ts";
import { deleteRouteMapShare } from "../../../functions/core/use-cases/delete-route-map-share.ts";
import { getRouteMap } from "../../../functions/core/use-cases/get-route-map.ts";
import { getSharedLink } from "../../../functions/core/use-cases/get-shared-link.ts";
import { getSharedRouteMap } from "../../../functions/core/use-cases/get-shared-route-map.ts";
import { listRouteMapShares } from "../../../functions/core/use-cases/list-route-map-shares.ts";
import { memoryShareLinkRepository } from "../../support/memory/share-link-repository.ts";
import { memoryTenantRepository } from "../../support/memory/tenant-repository.ts";
import { AWB, BKD_TWO_LEGS, FWB, harness, OTHER, OWNER, T0 } from "./support.ts";

const TOKEN = "A".repeat(43);
const ID = "0b9c1f4e-8a51-4d1e-9d0a-5a2f3c4b6d7e";
const BASE = "https://track.example.test";
const later = (hours: number) => new Date(Date.parse(T0) + hours * 3600_000).toISOString();

async function setup() {
  const h = harness();
  await h.imp(BKD_TWO_LEGS, T0);
  await h.imp(FWB, T0);
  const shareLinks = memoryShareLinkRepository();
  const deps = { routeMaps: h.routeMaps, shareLinks, limits: { activePerAwb: 20, perDay: 200 } };
  const create = (hours = 24, token = TOKEN, id = ID, owner = OWNER) =>
    createRouteMapShare(deps, {
      awb: AWB,
      owner,
      expiresInHours: hours,
      now: T0,
      id,
      token,
      appBaseUrl: BASE,
    });
  return { h, deps, shareLinks, create };
}

describe("route-map share links", () => {
  it("creates a link of a readable AWB: Url from the base and token, ExpiresAt now + hours, only the hash kept", async () => {
    const { create, shareLinks } = await setup();
    const created = await create(24);
    expect(created).toEqual({
      Id: ID,
      Url: `${BASE}/app/#/shared/${TOKEN}`,
      ExpiresAt: "2026-03-14T10:00:00Z",
    });
    expect(shareLinks.keys()).toHaveLength(1);
    expect(shareLinks.keys()[0]).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(shareLinks.all())).not.toContain(TOKEN);
  });

  it("refuses with the route map's 404 an AWB the caller may not read, storing nothing", async () => {
    const { create, shareLinks } = await setup();
    await expect(create(24, TOKEN, ID, OTHER)).rejects.toBeInstanceOf(RouteMapNotFoundError);
    expect(shareLinks.all()).toEqual([]);
  });

  it("opens the same route map as GET route map, until it expires", async () => {
    const { deps, create, h } = await setup();
    await create(1);
    const shared = await getSharedRouteMap(deps, { token: TOKEN, now: later(0.5) });
    const own = await getRouteMap(h, { awb: AWB, reader: OWNER, now: later(0.5) });
    expect(JSON.parse(shared)).toEqual(JSON.parse(own));
    expect(shared).not.toMatch(/agent|cass|forwarder|ACMECARGO/i);
    await expect(getSharedRouteMap(deps, { token: TOKEN, now: later(1) })).rejects.toBeInstanceOf(
      ShareLinkNotFoundError,
    );
  });

  it("says who shared it (the forwarder's Name, else its identifier) and until when, while it works", async () => {
    const { deps, create } = await setup();
    await create(1);
    const tenants = memoryTenantRepository();
    const withTenants = { ...deps, tenants };
    expect(await getSharedLink(withTenants, { token: TOKEN, now: later(0.5) })).toEqual({
      sharedBy: "ACMECARGO",
      expiresAt: "2026-03-13T11:00:00Z",
    });
    await tenants.createTenant({
      kind: "forwarder",
      forwarderId: OWNER.forwarderId,
      name: "Acme Cargo GmbH",
      agentCode: OWNER.agentCode,
      agentCass: OWNER.agentCass,
      agentStation: "FRA",
      contactEmail: "ops@acme.example",
      enabled: true,
      createdAt: T0,
      updatedAt: T0,
    });
    expect((await getSharedLink(withTenants, { token: TOKEN, now: later(0.5) })).sharedBy).toBe(
      "Acme Cargo GmbH",
    );
    for (const [token, now] of [
      [TOKEN, later(1)],
      ["B".repeat(43), later(0.5)],
    ] as const)
      await expect(getSharedLink(withTenants, { token, now })).rejects.toBeInstanceOf(ShareLinkNotFoundError);
  });

  it("is 404 for an unknown token", async () => {
    const { deps, create } = await setup();
    await create();
    await expect(getSharedRouteMap(deps, { token: "B".repeat(43), now: T0 })).rejects.toBeInstanceOf(
      ShareLinkNotFoundError,
    );
  });

  it("lists the owner's active links without tokens; revoking makes the link 404", async () => {
    const { deps, create } = await setup();
    await create(24);
    await create(1, "C".repeat(43), "1b9c1f4e-8a51-4d1e-9d0a-5a2f3c4b6d7e");
    const listed = await listRouteMapShares(deps, { awb: AWB, reader: OWNER, now: later(2) });
    expect(listed).toEqual({
      Items: [{ Id: ID, CreatedAt: "2026-03-13T10:00:00Z", ExpiresAt: "2026-03-14T10:00:00Z" }],
    });
    await expect(listRouteMapShares(deps, { awb: AWB, reader: OTHER, now: T0 })).rejects.toBeInstanceOf(
      RouteMapNotFoundError,
    );
    await expect(deleteRouteMapShare(deps, { awb: AWB, owner: OTHER, id: ID })).rejects.toBeInstanceOf(
      ShareLinkNotFoundError,
    );
    await deleteRouteMapShare(deps, { awb: AWB, owner: OWNER, id: ID });
    await expect(getSharedRouteMap(deps, { token: TOKEN, now: T0 })).rejects.toBeInstanceOf(
      ShareLinkNotFoundError,
    );
    await expect(deleteRouteMapShare(deps, { awb: AWB, owner: OWNER, id: ID })).rejects.toBeInstanceOf(
      ShareLinkNotFoundError,
    );
  });

  it("strips members naming an agent, a CASS or a forwarder at any depth", () => {
    const json = JSON.stringify({
      A: 1,
      AgentCode: "1",
      Nested: [{ ForwarderIdentifier: "x", AgentCass: "2", B: 2 }],
    });
    expect(JSON.parse(sharedRouteMapJson(json))).toEqual({ A: 1, Nested: [{ B: 2 }] });
  });
});

describe("share link limits", () => {
  const limits = { activePerAwb: 2, perDay: 3 };
  const token = (n: number) => `${String(n).padStart(3, "0")}${"T".repeat(40)}`;
  const id = (n: number) => `0b9c1f4e-8a51-4d1e-9d0a-${String(n).padStart(12, "0")}`;

  async function limitedSetup() {
    const h = harness();
    await h.imp(BKD_TWO_LEGS, T0);
    await h.imp(FWB, T0);
    const shareLinks = memoryShareLinkRepository();
    const deps = { routeMaps: h.routeMaps, shareLinks, limits };
    const create = (n: number, now = T0, hours = 24) =>
      createRouteMapShare(deps, {
        awb: AWB,
        owner: OWNER,
        expiresInHours: hours,
        now,
        id: id(n),
        token: token(n),
        appBaseUrl: BASE,
      });
    return { deps, shareLinks, create };
  }

  it("refuses a link past the active links per AWB with 409 naming the limit, storing nothing", async () => {
    const { create, shareLinks } = await limitedSetup();
    await create(1);
    await create(2);
    const refused = await create(3).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ShareLinkLimitError);
    expect(refused).toMatchObject({ kind: "active-per-awb", limit: 2, retryAfterSeconds: null });
    expect((refused as Error).message).toContain("2 active share links for AWB 020-12345675");
    expect(shareLinks.all()).toHaveLength(2);
  });

  it("frees a place when a link expires or is revoked", async () => {
    const { deps, create } = await limitedSetup();
    await create(1, T0, 1);
    await create(2);
    // The first expired an hour later: its place is free again.
    await create(3, later(1));
    await deleteRouteMapShare(deps, { awb: AWB, owner: OWNER, id: id(2) });
    // The next UTC day, under its own daily count.
    expect((await create(4, later(24))).Id).toBe(id(4));
  });

  it("refuses the links of a UTC day past the daily limit, with the seconds until the next day", async () => {
    const { deps, create } = await limitedSetup();
    await create(1);
    await create(2);
    await deleteRouteMapShare(deps, { awb: AWB, owner: OWNER, id: id(1) });
    await create(3);
    await deleteRouteMapShare(deps, { awb: AWB, owner: OWNER, id: id(3) });
    const refused = await create(4).catch((error: unknown) => error);
    expect(refused).toMatchObject({ kind: "per-day", limit: 3 });
    // T0 is 2026-03-13T10:00:00Z: 14 hours to midnight.
    expect((refused as ShareLinkLimitError).retryAfterSeconds).toBe(14 * 3600);
    expect(secondsToNextUtcDay("2026-03-13T23:59:59.500Z")).toBe(1);
  });
});
