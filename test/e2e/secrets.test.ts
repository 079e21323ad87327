/**
 * Secrets (webhook Psk and Token, customer header values) are shown in full only by the request that
 * creates them — never by any GET (one item, lists, deliveries of rules and webhooks) nor by a later
 * write's answer — and never written to the logs — checked with the runner logging at
 * DEBUG while a delivery that uses every secret goes out, and one that fails.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { bookingAndFwb, serialFor } from "../../bench/support.ts";
import { type Receiver, startReceiver, waitFor } from "../adapters/pipeline/receiver.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { makeJwt } from "../unit/notifications/helpers.ts";

let stack: RunningStack;
let receiver: Receiver;
const PSK = "psk-that-must-never-leak-0001";
const TOKEN = makeJwt({ alg: "RS256", typ: "JWT" }, { sub: "token-that-must-never-leak" });
const HEADER_VALUE = "api-key-that-must-never-leak-0001";

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await startRunner({ POWERTOOLS_LOG_LEVEL: "DEBUG", DELIVERY_RETRY_SCALE: "0.0001" });
}, scaled(90_000));

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

it(
  "never returns a secret in full after creation and never logs one",
  async () => {
    const forwarder = tokens.forwarder();
    const support = tokens.support();
    const endpoint = await call(stack.url, "POST", "/support/customer-endpoints", {
      token: support,
      json: {
        ForwarderIdentifier: "ACMECARGO",
        Url: `${receiver.url}/customer`,
        HeaderName: "apiKey",
        HeaderValue: HEADER_VALUE,
      },
    });
    expect(endpoint.status, endpoint.text).toBe(200);
    const guid = (endpoint.body as { Id: string }).Id;
    const rule = await call(stack.url, "POST", "/ffw/service/routemap/eventconfignotifier", {
      token: forwarder,
      json: {
        ChannelType: "Url",
        NotifyTo: guid,
        HeaderItems: "",
        FormatType: "Json",
        AirlinePrefix: "*",
        Event: "RCS",
        EventAlert: true,
        MissedEventAlert: false,
        ProActiveAlert: false,
        ProActiveTime: 0,
        Enabled: true,
      },
    });
    expect(rule.status, rule.text).toBe(200);
    const webhook = await call(stack.url, "POST", "/ffw/service/routemap/webhook", {
      token: forwarder,
      json: {
        Event: "RCS",
        Url: `${receiver.url}/hook`,
        Enable: true,
        Type: "json",
        AWB: "",
        Token: TOKEN,
        Psk: PSK,
      },
    });
    expect(webhook.status, webhook.text).toBe(200);
    // The creating response shows them once.
    expect(webhook.body).toMatchObject({ Psk: PSK, Token: TOKEN });
    expect((endpoint.body as { HeaderValue: string }).HeaderValue).toBe(HEADER_VALUE);
    const webhookId = (webhook.body as { Id: number }).Id;
    // A failing receiver too, so errors and retries get logged.
    receiver.on("/hook", { statuses: [500, 204] });

    const serial = serialFor(4_400_004);
    const carrier = tokens.carrier("020");
    expect(
      (await call(stack.url, "POST", "/carrier/messages", { token: carrier, json: bookingAndFwb(serial, 6) }))
        .status,
    ).toBe(200);
    const now = new Date();
    const rcs = {
      Type: "RCS",
      AirlinePrefix: "020",
      AwbNumber: serial,
      Origin: "FRA",
      Destination: "JFK",
      Station: "FRA",
      Time: new Date(now.getTime() + 3_600_000).toISOString().slice(0, 16),
    };
    expect((await call(stack.url, "POST", "/carrier/messages", { token: carrier, json: rcs })).status).toBe(
      200,
    );
    await waitFor(() => receiver.postsTo("/hook").length >= 2 && receiver.postsTo("/customer").length >= 1);
    // The secrets did their job on the wire...
    expect(receiver.postsTo("/customer")[0]?.headers.apikey).toBe(HEADER_VALUE);
    expect(receiver.postsTo("/hook")[1]?.headers.authorization).toBe(`Bearer ${TOKEN}`);

    // ...but nothing after the creating response shows them in full: every GET of the rule, the
    // webhook, their deliveries and the lists, and the answers of the writes that return them.
    const ruleId = (rule.body as { Id: number }).Id;
    const RULES = "/ffw/service/routemap/eventconfignotifier";
    const WEBHOOKS = "/ffw/service/routemap/webhook";
    await waitFor(async () => {
      const deliveries = await call(stack.url, "GET", `${RULES}/${ruleId}/deliveries`, { token: forwarder });
      return (deliveries.body as { Items?: unknown[] }).Items?.length === 1;
    });
    const reads = [
      await call(stack.url, "GET", `${WEBHOOKS}/${webhookId}`, { token: forwarder }),
      await call(stack.url, "GET", WEBHOOKS, { token: forwarder }),
      await call(stack.url, "GET", `${WEBHOOKS}?CurrentPage=1&PageSize=500`, { token: forwarder }),
      await call(stack.url, "GET", `${WEBHOOKS}/${webhookId}/deliveries`, { token: forwarder }),
      await call(stack.url, "GET", `${RULES}/${ruleId}`, { token: forwarder }),
      await call(stack.url, "GET", RULES, { token: forwarder }),
      await call(stack.url, "GET", `${RULES}/${ruleId}/deliveries`, { token: forwarder }),
      await call(stack.url, "GET", "/support/customer-endpoints", { token: support }),
      await call(stack.url, "GET", "/support/customer-endpoints?PageSize=500", { token: support }),
      // Writes that answer with the subscription: a PUT keeping the stored secrets, verify, enable.
      await call(stack.url, "PUT", `${WEBHOOKS}/${webhookId}`, {
        token: forwarder,
        json: { Event: "RCS", Url: `${receiver.url}/hook`, Enable: true, Type: "json", AWB: "" },
      }),
      await call(stack.url, "POST", `${WEBHOOKS}/${webhookId}/verify`, { token: forwarder }),
      await call(stack.url, "POST", `${RULES}/${ruleId}/enable`, { token: forwarder }),
    ];
    for (const read of reads) {
      expect(read.status, read.text).toBe(200);
      for (const secret of [PSK, TOKEN, HEADER_VALUE]) expect(read.text).not.toContain(secret);
    }
    // The rule's and the webhook's deliveries were there to be read (not empty pages).
    expect(reads[3]?.text).toContain(`"Status":"delivered"`);
    expect(reads[6]?.text).toContain(`"Status":"delivered"`);
    // Masked, not dropped: the forwarder can still tell which secret is stored.
    expect(reads[0]?.body).toMatchObject({ Psk: `••••${PSK.slice(-4)}`, Token: `••••${TOKEN.slice(-4)}` });
    expect(reads[7]?.text).toContain(`••••${HEADER_VALUE.slice(-4)}`);
    // Deleting answers with what was deleted: masked too.
    const deleted = await call(stack.url, "DELETE", `${WEBHOOKS}/${webhookId}`, { token: forwarder });
    expect(deleted.status, deleted.text).toBe(200);
    for (const secret of [PSK, TOKEN]) expect(deleted.text).not.toContain(secret);
    // And the logs (DEBUG) never carried them.
    const logs = stack.output();
    // Structured handler logs were written (so there was something to leak into).
    expect(logs).toMatch(/"level":"(DEBUG|INFO|WARN)"/);
    for (const secret of [PSK, TOKEN, HEADER_VALUE, Buffer.from(PSK).toString("base64")])
      expect(logs).not.toContain(secret);
  },
  scaled(120_000),
);
