/** The carrier's ONE Record server on PUT /support/carriers/{prefix}: token kept, masked, replaced. */
import { describe, expect, it } from "vitest";
import { type CarrierSettings, carrierToApi } from "../../../functions/core/carriers.ts";
import { InvalidFieldsError } from "../../../functions/core/errors.ts";
import type { CarrierRepository } from "../../../functions/core/ports/carriers.ts";
import { putCarrier } from "../../../functions/core/use-cases/put-carrier.ts";
import { memoryTenantRepository } from "../../support/memory/tenant-repository.ts";

const TOKEN = "publisher-token-abcd";

function setup() {
  const stored = new Map<string, CarrierSettings>();
  const carriers: CarrierRepository = {
    get: async (prefix) => stored.get(prefix) ?? null,
    put: async (carrier) => {
      stored.set(carrier.airlinePrefix, carrier);
    },
  };
  const deps = { carriers, tenants: memoryTenantRepository() };
  const put = (oneRecord: { serverUrl: string; token?: string | null } | undefined) =>
    putCarrier(deps, {
      prefix: "020",
      settings: {
        name: "Lufthansa Cargo",
        qualityProgram: true,
        xtd: true,
        ...(oneRecord ? { oneRecord } : {}),
      },
      now: "2026-03-14T12:00:00Z",
    });
  return { stored, put };
}

describe("putCarrier OneRecord", () => {
  it("stores the server and token, shows the token masked, keeps it when the mask or nothing is sent back", async () => {
    const { stored, put } = setup();
    const first = await put({ serverUrl: "https://1r.carrier.example/", token: TOKEN });
    expect(carrierToApi(first).OneRecord).toEqual({
      ServerUrl: "https://1r.carrier.example/",
      Token: "••••abcd",
    });
    await put({ serverUrl: "https://1r.carrier.example/", token: "••••abcd" });
    expect(stored.get("020")?.oneRecord).toEqual({ serverUrl: "https://1r.carrier.example/", token: TOKEN });
    await put({ serverUrl: "https://1r.carrier.example/" });
    expect(stored.get("020")?.oneRecord?.token).toBe(TOKEN);
    await put({ serverUrl: "https://1r.carrier.example/", token: null });
    expect(stored.get("020")?.oneRecord).toEqual({ serverUrl: "https://1r.carrier.example/", token: null });
    await put(undefined);
    expect(stored.get("020")?.oneRecord).toBeUndefined();
  });

  it("a new ServerUrl needs the token again in full (400 naming OneRecord.Token)", async () => {
    const { put } = setup();
    await put({ serverUrl: "https://1r.carrier.example/", token: TOKEN });
    await expect(put({ serverUrl: "https://other.example/", token: "••••abcd" })).rejects.toThrow(
      InvalidFieldsError,
    );
    await expect(put({ serverUrl: "https://other.example/" })).rejects.toMatchObject({
      errors: [{ field: "OneRecord.Token" }],
    });
    const moved = await put({ serverUrl: "https://other.example/", token: "another-token-0002" });
    expect(moved.oneRecord).toEqual({ serverUrl: "https://other.example/", token: "another-token-0002" });
  });
});
