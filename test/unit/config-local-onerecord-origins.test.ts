/** LOCAL_ONE_RECORD_ORIGINS: a local runner's publisher stand-ins, never honoured in production. */
import { describe, expect, it } from "vitest";
import { ConfigurationError, configFrom } from "../../functions/adapters/config.ts";

const origins = (env: Record<string, string>) => configFrom(env).localOneRecordOrigins();

describe("LOCAL_ONE_RECORD_ORIGINS", () => {
  it("maps each publisher origin to its stand-in, locally", () => {
    const map = origins({
      DEPLOYMENT_MODE: "local",
      LOCAL_ONE_RECORD_ORIGINS:
        "https://1r.example.com/=http://127.0.0.1:4100, https://b.example=http://127.0.0.1:9",
    });
    expect([...map]).toEqual([
      ["https://1r.example.com", "http://127.0.0.1:4100"],
      ["https://b.example", "http://127.0.0.1:9"],
    ]);
    expect(origins({ DEPLOYMENT_MODE: "local" }).size).toBe(0);
  });

  it("is refused in production and when a pair is not two origins", () => {
    expect(() => origins({ LOCAL_ONE_RECORD_ORIGINS: "https://a.example=http://127.0.0.1:1" })).toThrow(
      ConfigurationError,
    );
    expect(() =>
      origins({ DEPLOYMENT_MODE: "local", LOCAL_ONE_RECORD_ORIGINS: "https://a.example" }),
    ).toThrow(/origin=origin/);
  });
});
