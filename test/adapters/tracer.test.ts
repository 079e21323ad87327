/**
 * The tracer where functions/adapters/tracer.ts puts it: with tracing on (a Lambda execution
 * environment, POWERTOOLS_TRACE_ENABLED=true, as the stack deploys it) every AWS SDK client the
 * adapters create carries X-Ray's instrumentation and the outbound HTTP sender opens a subsegment per
 * exchange; with it off (the local runner, the tests) the clients are left as they are.
 * Each case loads the adapters afresh, since the Tracer reads its settings when it is created.
 */
import { afterEach, describe, expect, it, vi } from "vitest";

/** X-Ray's AWS SDK v3 middleware, as aws-xray-sdk-core names it on the client's stack. */
const XRAY_MIDDLEWARE = "XRaySDKInstrumentation";

async function loadAdapters(tracing: boolean) {
  vi.resetModules();
  vi.stubEnv("AWS_REGION", "eu-central-1");
  vi.stubEnv("POWERTOOLS_TRACE_ENABLED", tracing ? "true" : "false");
  vi.stubEnv("AWS_EXECUTION_ENV", tracing ? "AWS_Lambda_nodejs22.x" : "");
  // Only the clients are under test: leave the worker's http/https modules unpatched.
  vi.stubEnv("POWERTOOLS_TRACER_CAPTURE_HTTPS_REQUESTS", "false");
  vi.stubEnv("AWS_XRAY_CONTEXT_MISSING", "IGNORE_ERROR");
  const clients = await import("../../functions/adapters/aws-clients.ts");
  const { tracer } = await import("../../functions/adapters/tracer.ts");
  return { clients, tracer };
}

type WithStack = { middlewareStack: { identify(): string[] } };
const instrumented = (client: WithStack) =>
  client.middlewareStack.identify().some((entry) => entry.startsWith(XRAY_MIDDLEWARE));

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("tracer", () => {
  it("captures every AWS SDK client the adapters create when tracing is on", async () => {
    const { clients, tracer } = await loadAdapters(true);
    expect(tracer.isTracingEnabled()).toBe(true);
    const created: Record<string, WithStack> = {
      dynamoDb: clients.dynamoDb(),
      documentClient: clients.dynamo(),
      sqs: clients.sqs(),
      ses: clients.ses(),
      scheduler: clients.scheduler(),
      cognito: clients.cognito(),
    };
    for (const [name, client] of Object.entries(created)) expect(instrumented(client), name).toBe(true);
  });

  it("leaves them as they are when tracing is off", async () => {
    const { clients, tracer } = await loadAdapters(false);
    expect(tracer.isTracingEnabled()).toBe(false);
    for (const client of [clients.dynamoDb(), clients.sqs(), clients.ses(), clients.scheduler()])
      expect(instrumented(client)).toBe(false);
  });

  it("runs an outbound exchange in a subsegment of its own, annotated with the host only", async () => {
    const { tracer } = await loadAdapters(true);
    const { inSubsegment } = await import("../../functions/adapters/tracer.ts");
    const { traceAnnotations } = await import("../../functions/adapters/http-sender.ts");
    const opened: Array<{ name: string; annotations: Record<string, unknown>; closed: boolean }> = [];
    vi.spyOn(tracer.provider, "captureAsyncFunc").mockImplementation((name, work) => {
      const record = { name, annotations: {} as Record<string, unknown>, closed: false };
      opened.push(record);
      const subsegment = {
        addAnnotation: (key: string, value: unknown) => {
          record.annotations[key] = value;
        },
        addError: () => undefined,
        close: () => {
          record.closed = true;
        },
      };
      // A stand-in for X-Ray's subsegment: only what inSubsegment calls.
      return work(subsegment as unknown as Parameters<typeof work>[0]);
    });
    const answer = await inSubsegment(
      "## outbound POST",
      traceAnnotations("https://hooks.forwarder.example:8443/in?token=secret", "POST"),
      async () => "sent",
    );
    expect(answer).toBe("sent");
    expect(opened).toEqual([
      {
        name: "## outbound POST",
        annotations: { method: "POST", targetHost: "hooks.forwarder.example:8443" },
        closed: true,
      },
    ]);
  });

  it("runs the exchange without a subsegment when tracing is off", async () => {
    const { tracer } = await loadAdapters(false);
    const { inSubsegment } = await import("../../functions/adapters/tracer.ts");
    const capture = vi.spyOn(tracer.provider, "captureAsyncFunc");
    expect(await inSubsegment("## outbound GET", {}, async () => 42)).toBe(42);
    expect(capture).not.toHaveBeenCalled();
  });
});
