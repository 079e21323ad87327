/** Issue 11 point 10: a burst of carrier messages shares one carrier-settings read per container. */
import { expect, it } from "vitest";
import { cachedCarrierDirectory } from "../../functions/adapters/carrier-repository.ts";
import type { CarrierSettings } from "../../functions/core/carriers.ts";

const settings: CarrierSettings = {
  airlinePrefix: "020",
  name: "A",
  qualityProgram: true,
  xtd: false,
  updatedAt: "x",
};

it("serves 100 simultaneous requests with one read", async () => {
  let reads = 0;
  const cached = cachedCarrierDirectory({
    get: async () => {
      reads += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
      return settings;
    },
  });
  const all = await Promise.all(Array.from({ length: 100 }, () => cached.get("020")));
  expect(all.every((s) => s === settings)).toBe(true);
  expect(reads).toBe(1);
});

it("does not keep a failed read: the next request reads again", async () => {
  let reads = 0;
  const cached = cachedCarrierDirectory({
    get: async () => {
      reads += 1;
      if (reads === 1) throw new Error("unreachable");
      return settings;
    },
  });
  await expect(cached.get("020")).rejects.toThrow("unreachable");
  expect(await cached.get("020")).toBe(settings);
  expect(reads).toBe(2);
});
