/**
 * The SSRF guard at the point of sending (production mode): loopback, private ranges, IPv4-mapped
 * IPv6 and DNS names that resolve to private addresses are refused before any connection; locally,
 * http to loopback is allowed so developers can point webhooks at a local receiver.
 */
import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpSender } from "../../functions/adapters/http-sender.ts";

const dns: Record<string, string[]> = {
  "intranet.example": ["10.1.2.3"],
  "metadata.example": ["169.254.169.254"],
  "mixed.example": ["93.184.216.34", "192.168.0.10"],
  "mapped.example": ["::ffff:127.0.0.1"],
  "ula.example": ["fd00::1"],
  "public.example": ["93.184.216.34"],
};
const fakeResolver = async (host: string) => dns[host] ?? [];

let receiver: Server;
let port = 0;
const received: string[] = [];

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", () => {
      received.push(body);
      response.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const address = receiver.address();
  port = typeof address === "object" && address ? address.port : 0;
});

afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

describe("production mode", () => {
  const sender = createHttpSender("production", fakeResolver);
  const refused = [
    "https://127.0.0.1/hook",
    "https://localhost/hook",
    "https://[::1]/hook",
    "https://[::ffff:127.0.0.1]/hook",
    "https://[::ffff:10.0.0.1]/hook",
    "https://10.0.0.1/hook",
    "https://172.16.5.4/hook",
    "https://192.168.1.1/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://0x7f.1/hook",
    "https://intranet.example/hook",
    "https://metadata.example/hook",
    "https://mixed.example/hook",
    "https://mapped.example/hook",
    "https://ula.example/hook",
    "https://unresolvable.example/hook",
    "http://public.example/hook",
  ];
  for (const url of refused) {
    it(`refuses ${url} without connecting`, async () => {
      const before = received.length;
      const result = await sender.post({ url, headers: {}, body: "{}" });
      expect(result.kind).toBe("refused");
      expect(received.length).toBe(before);
    });
  }

  it("allows https to a name resolving only to public addresses", async () => {
    expect((await sender.check("https://public.example/hook")).allowed).toBe(true);
  });
});

describe("local mode", () => {
  it("posts over http to a loopback receiver", async () => {
    const sender = createHttpSender("local");
    const result = await sender.post({
      url: `http://127.0.0.1:${port}/hook`,
      headers: { "content-type": "application/json" },
      body: '{"a":1}',
    });
    expect(result).toMatchObject({ kind: "response", status: 204 });
    expect(received.at(-1)).toBe('{"a":1}');
  });

  it("still refuses private non-loopback addresses", async () => {
    const sender = createHttpSender("local", fakeResolver);
    expect((await sender.post({ url: "http://intranet.example/hook", headers: {}, body: "" })).kind).toBe(
      "refused",
    );
  });

  it("reports a timeout when the receiver does not answer in time", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(0, "127.0.0.1", resolve));
    const address = silent.address();
    const silentPort = typeof address === "object" && address ? address.port : 0;
    const result = await createHttpSender("local").post({
      url: `http://127.0.0.1:${silentPort}/`,
      headers: {},
      body: "",
      timeoutMs: 200,
    });
    expect(result.kind).toBe("timeout");
    silent.closeAllConnections();
    await new Promise<void>((resolve) => silent.close(() => resolve()));
  });
});
