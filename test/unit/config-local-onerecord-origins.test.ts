/** The local runner's ONE Record publisher stand-ins (never honoured in production) and its fake clock start. */
import { describe, expect, it } from "vitest";
import { optionsFromEnv } from "../../bin/local/runner.ts";
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

describe("LOCAL_CLOCK_AT (the local runner's fake clock start)", () => {
  it("takes an ISO UTC instant and refuses anything else at start", () => {
    expect(optionsFromEnv({ LOCAL_CLOCK_AT: "2023-04-01T14:45:00Z" }).clockAt).toBe("2023-04-01T14:45:00Z");
    expect(optionsFromEnv({}).clockAt).toBeUndefined();
    for (const raw of ["2023-04-01", "2023-04-01T14:45:00+02:00", "2023-13-01T00:00Z", "yesterday"])
      expect(() => optionsFromEnv({ LOCAL_CLOCK_AT: raw }), raw).toThrow(/LOCAL_CLOCK_AT/);
  });
});
