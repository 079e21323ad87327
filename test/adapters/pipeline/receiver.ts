/**
 * A local HTTP receiver for delivery tests: records every POST per path and answers from a script per
 * path (status sequence whose last entry repeats, optional Retry-After, optional slowness). It passes
 * the webhook URL challenge (header x-route-map-challenge, answered with its bare value) without counting it.
 */
import { createServer, type IncomingHttpHeaders, type Server } from "node:http";

export interface ReceivedPost {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  at: number;
}

export interface Behaviour {
  statuses?: number[];
  retryAfter?: string;
  /** Milliseconds to wait before answering, per request index (last repeats). */
  delaysMs?: number[];
}

export interface Receiver {
  url: string;
  received: ReceivedPost[];
  challenges: ReceivedPost[];
  on(path: string, behaviour: Behaviour): void;
  postsTo(path: string): ReceivedPost[];
  stop(): Promise<void>;
}

const pick = <T>(list: readonly T[] | undefined, index: number): T | undefined =>
  list && list.length > 0 ? list[Math.min(index, list.length - 1)] : undefined;

export async function startReceiver(): Promise<Receiver> {
  const received: ReceivedPost[] = [];
  const challenges: ReceivedPost[] = [];
  const behaviours = new Map<string, Behaviour>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const path = request.url ?? "/";
      const challenge = request.headers["x-route-map-challenge"];
      if (typeof challenge === "string") {
        challenges.push({
          path,
          headers: request.headers,
          body: Buffer.concat(chunks).toString("utf8"),
          at: Date.now(),
        });
        // The proof the service expects: the bare challenge value (an echo of the request does not pass).
        response.writeHead(200, { "content-type": "text/plain" });
        response.end(challenge);
        return;
      }
      const index = received.filter((post) => post.path === path).length;
      received.push({
        path,
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
      });
      const behaviour = behaviours.get(path) ?? {};
      const status = pick(behaviour.statuses, index) ?? 204;
      const answer = () => {
        if (response.destroyed) return;
        response.writeHead(status, behaviour.retryAfter ? { "retry-after": behaviour.retryAfter } : {});
        response.end(status >= 400 ? `failure ${index + 1}` : "");
      };
      const delay = pick(behaviour.delaysMs, index) ?? 0;
      if (delay > 0) setTimeout(answer, delay);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    challenges,
    on: (path, behaviour) => behaviours.set(path, behaviour),
    postsTo: (path) => received.filter((post) => post.path === path),
    stop: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export async function waitFor(
  condition: () => boolean | Promise<boolean>,
  timeoutMs = 20_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}
