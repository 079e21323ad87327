import { expect, it } from "vitest";
import { cachedCarrierDirectory } from "../../functions/adapters/carrier-repository.ts";
import type { CarrierSettings } from "../../functions/core/carriers.ts";

it("serves carrier settings from memory for the TTL, then reads them again", async () => {
  let reads = 0;
  let clock = 0;
  const settings: CarrierSettings = {
    airlinePrefix: "020",
    name: "A",
    qualityProgram: true,
    xtd: false,
    updatedAt: "x",
  };
  const cached = cachedCarrierDirectory(
    {
      get: async () => {
        reads += 1;
        return settings;
      },
    },
    1000,
    () => clock,
  );
  expect(await cached.get("020")).toBe(settings);
  expect(await cached.get("020")).toBe(settings);
  expect(reads).toBe(1);
  clock = 1500;
  await cached.get("020");
  expect(reads).toBe(2);
});
