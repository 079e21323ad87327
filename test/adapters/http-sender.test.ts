/**
 * The HTTP sender against real local servers. SSRF guard at the point of sending (production mode):
 * every way of naming the test receiver (loopback literals, IPv4-mapped IPv6, a DNS name resolving to
 * it) is refused before any connection, while the same URLs reach it in local mode, so the "nothing
 * arrived" assertions can fail. The per-attempt deadline covers the whole exchange, body included.
 */
import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createHttpSender, MAX_RESPONSE_BYTES } from "../../functions/adapters/http-sender.ts";

const dns: Record<string, string[]> = {
  "intranet.example": ["10.1.2.3"],
  "metadata.example": ["169.254.169.254"],
  "mixed.example": ["93.184.216.34", "192.168.0.10"],
  "mapped.example": ["::ffff:127.0.0.1"],
  "ula.example": ["fd00::1"],
  "public.example": ["93.184.216.34"],
  // Resolves to this machine, where the test receiver listens.
  "receiver.internal.example": ["127.0.0.1"],
};
const fakeResolver = async (host: string) => dns[host] ?? [];

let receiver: Server;
let port = 0;
const received: Array<{ path: string; body: string }> = [];
/** TCP connections accepted: also counts https attempts, which this plain-http server cannot answer. */
let connections = 0;

beforeAll(async () => {
  receiver = createServer((request, response) => {
    let body = "";
    request.on("data", (chunk: Buffer) => {
      body += chunk.toString();
    });
    request.on("end", () => {
      received.push({ path: request.url ?? "", body });
      response.writeHead(204).end();
    });
  });
  receiver.on("connection", () => {
    connections += 1;
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  port = (receiver.address() as AddressInfo).port;
});

afterAll(() => {
  receiver.closeAllConnections();
  return new Promise<void>((resolve) => receiver.close(() => resolve()));
});

/** URLs that all lead to the test receiver (PORT is filled in once it listens). */
const TOWARDS_RECEIVER = [
  "http://127.0.0.1:PORT/guard",
  "https://127.0.0.1:PORT/guard",
  "https://0x7f.1:PORT/guard",
  "http://[::ffff:127.0.0.1]:PORT/guard",
  "https://[::ffff:127.0.0.1]:PORT/guard",
  "http://receiver.internal.example:PORT/guard",
  "https://receiver.internal.example:PORT/guard",
];
const at = (template: string) => template.replace("PORT", String(port));

describe("production mode", () => {
  const sender = createHttpSender("production", fakeResolver);

  for (const template of TOWARDS_RECEIVER) {
    it(`refuses ${template} and the receiver sees no connection`, async () => {
      const [connectionsBefore, receivedBefore] = [connections, received.length];
      const result = await sender.post({ url: at(template), headers: {}, body: "{}" });
      expect(result.kind).toBe("refused");
      expect(connections).toBe(connectionsBefore);
      expect(received.length).toBe(receivedBefore);
    });
  }

  // Addresses elsewhere: refused for their address class (nothing listens there to count).
  const refused = [
    "https://localhost/hook",
    "https://[::1]/hook",
    "https://[::ffff:10.0.0.1]/hook",
    "https://10.0.0.1/hook",
    "https://172.16.5.4/hook",
    "https://192.168.1.1/hook",
    "https://169.254.169.254/latest/meta-data",
    "https://intranet.example/hook",
    "https://metadata.example/hook",
    "https://mixed.example/hook",
    "https://mapped.example/hook",
    "https://ula.example/hook",
    "https://unresolvable.example/hook",
    "http://public.example/hook",
  ];
  for (const url of refused) {
    it(`refuses ${url}`, async () => {
      const result = await sender.post({ url, headers: {}, body: "{}" });
      expect(result).toMatchObject({ kind: "refused" });
    });
  }

  it("allows https to a name resolving only to public addresses", async () => {
    expect((await sender.check("https://public.example/hook")).allowed).toBe(true);
  });
});

describe("local mode", () => {
  const sender = createHttpSender("local", fakeResolver);

  for (const template of TOWARDS_RECEIVER) {
    it(`${template} reaches the receiver (the production refusal above is the guard's doing)`, async () => {
      const connectionsBefore = connections;
      const url = at(template);
      const result = await sender.post({
        url,
        headers: { "content-type": "application/json" },
        body: '{"a":1}',
      });
      expect(connections).toBeGreaterThan(connectionsBefore);
      if (url.startsWith("http:")) {
        expect(result).toMatchObject({ kind: "response", status: 204 });
        expect(received.at(-1)).toEqual({ path: "/guard", body: '{"a":1}' });
      } else {
        // TLS towards a plain-http server: connected, then no usable answer.
        expect(result.kind).toBe("network-error");
      }
    });
  }

  it("still refuses private non-loopback addresses", async () => {
    expect((await sender.post({ url: "http://intranet.example/hook", headers: {}, body: "" })).kind).toBe(
      "refused",
    );
  });
});

describe("per-attempt deadline", () => {
  /** A server answering every request with `respond`; `closed` resolves with each response's end state. */
  async function serve(respond: (response: ServerResponse) => void) {
    const closed: Array<Promise<{ finished: boolean }>> = [];
    const server = createServer((request, response) => {
      request.resume();
      closed.push(
        new Promise((resolve) =>
          response.on("close", () => resolve({ finished: response.writableFinished })),
        ),
      );
      respond(response);
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return {
      url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/`,
      closed,
      stop: () => {
        server.closeAllConnections();
        return new Promise<void>((resolve) => server.close(() => resolve()));
      },
    };
  }

  it("a receiver that never answers is a timeout", async () => {
    const silent = await serve(() => undefined);
    try {
      const result = await createHttpSender("local").post({
        url: silent.url,
        headers: {},
        body: "",
        timeoutMs: 200,
      });
      expect(result.kind).toBe("timeout");
    } finally {
      await silent.stop();
    }
  });

  it("a receiver that sends its headers and then drips the body is cut off at the deadline", async () => {
    const TOTAL = 100; // one byte per 100 ms: 10 s if the sender waited for the end
    let written = 0;
    const drip = await serve((response) => {
      response.writeHead(200, { "content-type": "text/plain", "content-length": String(TOTAL) });
      const timer = setInterval(() => {
        if (response.destroyed || written >= TOTAL) return clearInterval(timer);
        written += 1;
        response.write("x");
      }, 100);
      response.on("close", () => clearInterval(timer));
    });
    try {
      const result = await createHttpSender("local").post({
        url: drip.url,
        headers: {},
        body: "{}",
        timeoutMs: 300,
      });
      // The status line came in time: it is the receiver's answer; the body is what arrived.
      expect(result).toMatchObject({ kind: "response", status: 200, bodyCutOff: true });
      const body = result.kind === "response" ? result.body : "";
      expect(body.length).toBeLessThan(TOTAL);
      // The sender hung up: the receiver's response was closed before it could finish.
      expect(await drip.closed[0]).toEqual({ finished: false });
      expect(written).toBeLessThan(TOTAL);
    } finally {
      await drip.stop();
    }
  });

  it("stops reading once the capped body is collected, even if the receiver never ends it", async () => {
    const endless = await serve((response) => {
      response.writeHead(500, { "content-type": "text/plain" });
      response.write("e".repeat(MAX_RESPONSE_BYTES + 10));
    });
    try {
      // A deadline far beyond the test's own timeout: only the cap can end this attempt in time.
      const result = await createHttpSender("local").post({
        url: endless.url,
        headers: {},
        body: "",
        timeoutMs: 600_000,
      });
      expect(result).toMatchObject({ kind: "response", status: 500 });
      expect(result.kind === "response" && result.body).toBe("e".repeat(MAX_RESPONSE_BYTES));
      expect(result.kind === "response" && result.bodyCutOff).toBeFalsy();
      expect(await endless.closed[0]).toEqual({ finished: false });
    } finally {
      await endless.stop();
    }
  });
});
