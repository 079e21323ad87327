/**
 * Issue 11, delivery side, end to end through the real local runner:
 *  - point 19: a hanging webhook never holds up another forwarder's delivery;
 *  - point 5: customer endpoints are manageable (support updates/deletes, forwarders list theirs);
 *  - point 21: no e-mail amplification (identical rules refused, one mail per address and event, a new
 *    NotifyTo address is confirmed once through the link mailed to it).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Receiver, startReceiver, waitFor } from "../adapters/pipeline/receiver.ts";
import { confirmNotifyTo } from "../support/email-confirmation.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { scaled } from "../support/time.ts";
import { HOUR, local, MINUTE, minuteNow } from "./route-map-helpers.ts";

let stack: RunningStack;
let receiver: Receiver;
const RULES = "/ffw/service/routemap/eventconfignotifier";
const WEBHOOKS = "/ffw/service/routemap/webhook";

beforeAll(async () => {
  receiver = await startReceiver();
  stack = await startRunner({ DELIVERY_RETRY_SCALE: "0.0001" });
  const put = await call(stack.url, "PUT", "/support/carriers/020", {
    token: tokens.support(),
    json: { Name: "Carrier 020", QualityProgram: true, Xtd: true },
  });
  expect(put.status).toBe(200);
}, scaled(90_000));

afterAll(async () => {
  await stack?.stop();
  await receiver?.stop();
});

interface Forwarder {
  id: string;
  code: string;
  cass: string;
  token: string;
}
function forwarder(n: number): Forwarder {
  const code = String(7_000_000 + n);
  const cass = String(n).padStart(4, "0");
  return { id: `FID-FWD${n}`, code, cass, token: tokens.forwarder(`FID-FWD${n}`, code, cass, "FRA") };
}

/** 8-digit serial with its check digit (first seven digits mod 7). */
const serial = (n: number) => `${String(n).padStart(7, "0")}${n % 7}`;

const N = minuteNow();
async function post(body: string) {
  const posted = await call(stack.url, "POST", "/carrier/messages", {
    token: tokens.carrier("020"),
    body,
    contentType: "text/plain",
  });
  expect(posted.status, posted.text).toBe(200);
}
/** FWB naming the owner agent, then one DEP. */
async function shipAndDepart(awbSerial: string, owner: Forwarder): Promise<void> {
  const awb = `020-${awbSerial}`;
  await post(`FWB/16\n${awb}FRAJFK/T10K250.0MC1.5\nAGT//${owner.code}/${owner.cass}\n/ACME FORWARDING\n`);
  const t = local("FRA", N - 10 * MINUTE);
  await post(`FSU/13\n${awb}FRAJFK/T10K250.0\nDEP/LH400/${t.ddmmm}/FRAJFK/T10K250.0/A${t.hhmm}\n`);
}
/** One more status on an AWB already shipped (another event, same AWB). */
async function arrive(awbSerial: string): Promise<void> {
  const t = local("JFK", N + 8 * HOUR);
  await post(`FSU/13\n020-${awbSerial}FRAJFK/T10K250.0\nARR/LH400/${t.ddmmm}${t.hhmm}/JFK/T10\n`);
}

async function createWebhook(owner: Forwarder, path: string, overrides: Record<string, unknown> = {}) {
  const created = await call(stack.url, "POST", WEBHOOKS, {
    token: owner.token,
    json: { Event: "DEP", Url: `${receiver.url}${path}`, Enable: true, Type: "json", AWB: "", ...overrides },
  });
  expect(created.status, created.text).toBe(200);
  return created.body as { Id: number };
}

interface DeliveryView {
  DeliveryId: string;
  Status: string;
  Attempts: Array<{ Attempt: number; HttpStatus: number | null; Outcome: string; Detail: string }>;
}
async function deliveriesOf(owner: Forwarder, hookId: number): Promise<DeliveryView[]> {
  const listed = await call(stack.url, "GET", `${WEBHOOKS}/${hookId}/deliveries`, { token: owner.token });
  expect(listed.status, listed.text).toBe(200);
  return (listed.body as { Items: DeliveryView[] }).Items;
}

describe("point 19: a hanging webhook never holds up another target", () => {
  it(
    "another forwarder's webhook gets its event in well under the hanging target's 10 s deadline",
    async () => {
      const slow = forwarder(1);
      const fast = forwarder(2);
      // Never answers within the 10 s per-attempt deadline.
      receiver.on("/p19/hang", { delaysMs: [60_000] });
      const hook = await createWebhook(slow, "/p19/hang");
      await createWebhook(fast, "/p19/fast");

      await shipAndDepart(serial(101), slow);
      await waitFor(() => receiver.postsTo("/p19/hang").length >= 1, 20_000);
      const started = Date.now();
      await shipAndDepart(serial(102), fast);
      await waitFor(() => receiver.postsTo("/p19/fast").length >= 1, 20_000);
      const waited = (receiver.postsTo("/p19/fast")[0]?.at ?? Number.POSITIVE_INFINITY) - started;
      expect(waited).toBeLessThan(3000);

      // The hanging target's attempt times out; its retry comes through the slow lane once it answers.
      receiver.on("/p19/hang", { delaysMs: [60_000, 0] });
      await waitFor(async () => (await deliveriesOf(slow, hook.Id))[0]?.Status === "delivered", 30_000);
      const [delivery] = await deliveriesOf(slow, hook.Id);
      expect(delivery?.Attempts.map((a) => [a.Attempt, a.Outcome, a.Detail.slice(0, 7)])).toEqual([
        [1, "retry", "timeout"],
        [2, "delivered", "HTTP 20"],
      ]);
    },
    scaled(60_000),
  );
});

// ---- point 5 ----------------------------------------------------------------------------------------
const ENDPOINTS = "/support/customer-endpoints";
const OWN_ENDPOINTS = "/ffw/service/routemap/customer-endpoints";

async function registerEndpoint(owner: Forwarder, path: string, headerValue: string) {
  const registered = await call(stack.url, "POST", ENDPOINTS, {
    token: tokens.support(),
    json: {
      ForwarderIdentifier: owner.id,
      Url: `${receiver.url}${path}`,
      HeaderName: "apiKey",
      HeaderValue: headerValue,
    },
  });
  expect(registered.status, registered.text).toBe(200);
  return (registered.body as { Id: string }).Id;
}
function urlRule(guid: string, overrides: Record<string, unknown> = {}) {
  return {
    ChannelType: "Url",
    NotifyTo: guid,
    HeaderItems: "",
    FormatType: "Json",
    AirlinePrefix: "*",
    AwbNumber: "",
    Event: "DEP,ARR",
    EventAlert: true,
    MissedEventAlert: false,
    ProActiveAlert: false,
    ProActiveTime: 0,
    Destination: "",
    Enabled: true,
    ...overrides,
  };
}
async function createRule(owner: Forwarder, body: Record<string, unknown>) {
  const created = await call(stack.url, "POST", RULES, { token: owner.token, json: body });
  expect(created.status, created.text).toBe(200);
  return created.body as { Id: number; Enabled: boolean };
}
async function endpointsIn(path: string, token: string) {
  const listed = await call(stack.url, "GET", path, { token });
  expect(listed.status, listed.text).toBe(200);
  return (listed.body as { Items: Array<Record<string, string>> }).Items;
}

describe("point 5: customer endpoints are manageable", () => {
  it("support rotates the header value; the next delivery carries the new one, the GUID stays", async () => {
    const owner = forwarder(5);
    const guid = await registerEndpoint(owner, "/p5/rotate", "old-value-0001");
    await createRule(owner, urlRule(guid));
    await shipAndDepart(serial(501), owner);
    await waitFor(() => receiver.postsTo("/p5/rotate").length >= 1);
    expect(receiver.postsTo("/p5/rotate")[0]?.headers.apikey).toBe("old-value-0001");

    const rotated = await call(stack.url, "PUT", `${ENDPOINTS}/${guid}`, {
      token: tokens.support(),
      json: { Url: `${receiver.url}/p5/rotate`, HeaderName: "apiKey", HeaderValue: "new-value-0002" },
    });
    expect(rotated.status, rotated.text).toBe(200);
    expect(rotated.body).toEqual({
      Id: guid,
      ForwarderIdentifier: owner.id,
      Url: `${receiver.url}/p5/rotate`,
      HeaderName: "apiKey",
      HeaderValue: "••••0002",
    });
    // A GET body echoed back (masked value, response-only members) keeps the new value.
    const [listed] = (await endpointsIn(`${ENDPOINTS}?PageSize=500`, tokens.support())).filter(
      (endpoint) => endpoint.Id === guid,
    );
    const echoed = await call(stack.url, "PUT", `${ENDPOINTS}/${guid}`, {
      token: tokens.support(),
      json: listed,
    });
    expect(echoed.status, echoed.text).toBe(200);

    await arrive(serial(501));
    await waitFor(() => receiver.postsTo("/p5/rotate").length >= 2);
    expect(receiver.postsTo("/p5/rotate")[1]?.headers.apikey).toBe("new-value-0002");
  });

  it("refuses a masked value that is not the stored one, a changed Url without the value, bad ids", async () => {
    const owner = forwarder(6);
    const guid = await registerEndpoint(owner, "/p5/refuse", "secret-value-0003");
    const put = (json: unknown, id = guid) =>
      call(stack.url, "PUT", `${ENDPOINTS}/${id}`, { token: tokens.support(), json });
    const base = { Url: `${receiver.url}/p5/refuse`, HeaderName: "apiKey" };
    const fields = (body: unknown) =>
      (body as { errors: Array<{ field: string }> }).errors.map((e) => e.field);

    const wrongMask = await put({ ...base, HeaderValue: "••••9999" });
    expect(wrongMask.status).toBe(400);
    expect(fields(wrongMask.body)).toEqual(["HeaderValue"]);
    const movedKeepingSecret = await put({
      ...base,
      Url: `${receiver.url}/p5/elsewhere`,
      HeaderValue: "••••0003",
    });
    expect(movedKeepingSecret.status).toBe(400);
    expect(fields(movedKeepingSecret.body)).toEqual(["HeaderValue"]);
    const crlf = await put({ ...base, HeaderValue: "a\r\nX-Evil: 1" });
    expect(crlf.status).toBe(400);
    expect(fields(crlf.body)).toEqual(["HeaderValue"]);
    const notGuid = await put({ ...base, HeaderValue: "x-123456789" }, "not-a-guid");
    expect(notGuid.status).toBe(400);
    expect(fields(notGuid.body)).toEqual(["id"]);
    const unknown = await put(
      { ...base, HeaderValue: "x-123456789" },
      "3f2504e0-4f89-41d3-9a0c-0305e82c3309",
    );
    expect(unknown.status).toBe(404);
    const byForwarder = await call(stack.url, "PUT", `${ENDPOINTS}/${guid}`, {
      token: owner.token,
      json: { ...base, HeaderValue: "x-123456789" },
    });
    expect(byForwarder.status).toBe(403);

    // Nothing changed.
    const [stored] = (await endpointsIn(OWN_ENDPOINTS, owner.token)).filter((e) => e.Id === guid);
    expect(stored).toMatchObject({ Url: `${receiver.url}/p5/refuse`, HeaderValue: "••••0003" });
  });

  it("delete: 409 while an enabled rule uses it, ?force=true disables those rules; unused ones go at once", async () => {
    const owner = forwarder(7);
    const used = await registerEndpoint(owner, "/p5/used", "used-value-0004");
    const unused = await registerEndpoint(owner, "/p5/unused", "unused-value-0005");
    const rule = await createRule(owner, urlRule(used));
    // A disabled rule naming it is not in the way.
    await createRule(owner, urlRule(used, { Enabled: false, Event: "ARR" }));

    const refused = await call(stack.url, "DELETE", `${ENDPOINTS}/${used}`, { token: tokens.support() });
    expect(refused.status, refused.text).toBe(409);
    // Only the enabled rule is in the way.
    expect((refused.body as { detail: string }).detail).toContain(`used by enabled rule(s) ${rule.Id}:`);
    expect((await endpointsIn(OWN_ENDPOINTS, owner.token)).map((e) => e.Id).sort()).toEqual(
      [unused, used].sort(),
    );

    const badForce = await call(stack.url, "DELETE", `${ENDPOINTS}/${used}?force=yes`, {
      token: tokens.support(),
    });
    expect(badForce.status).toBe(400);
    expect((badForce.body as { errors: Array<{ field: string }> }).errors.map((e) => e.field)).toEqual([
      "force",
    ]);

    const forced = await call(stack.url, "DELETE", `${ENDPOINTS}/${used}?force=true`, {
      token: tokens.support(),
    });
    expect(forced.status, forced.text).toBe(200);
    expect(forced.body).toMatchObject({ Id: used, HeaderValue: "••••0004", DisabledRules: [rule.Id] });
    const after = await call(stack.url, "GET", `${RULES}/${rule.Id}`, { token: owner.token });
    expect((after.body as { Enabled: boolean }).Enabled).toBe(false);

    const plain = await call(stack.url, "DELETE", `${ENDPOINTS}/${unused}`, { token: tokens.support() });
    expect(plain.status, plain.text).toBe(200);
    expect((plain.body as { DisabledRules: number[] }).DisabledRules).toEqual([]);
    expect(await endpointsIn(OWN_ENDPOINTS, owner.token)).toEqual([]);
    const again = await call(stack.url, "DELETE", `${ENDPOINTS}/${unused}`, { token: tokens.support() });
    expect(again.status).toBe(404);
    // A Url rule can no longer name it.
    const stale = await call(stack.url, "POST", RULES, { token: owner.token, json: urlRule(used) });
    expect(stale.status).toBeGreaterThanOrEqual(400);
    expect(stale.status).toBeLessThan(500);
  });

  it("a forwarder lists only its own endpoints, masked, and can use the Id as NotifyTo", async () => {
    const owner = forwarder(8);
    const other = forwarder(9);
    const mine = await registerEndpoint(owner, "/p5/mine", "mine-value-0006");
    await registerEndpoint(other, "/p5/theirs", "theirs-value-0007");
    const listed = await call(stack.url, "GET", OWN_ENDPOINTS, { token: owner.token });
    expect(listed.status, listed.text).toBe(200);
    expect(listed.body).toEqual({
      TotalItems: 1,
      TotalPages: 1,
      PageSize: 100,
      CurrentPage: 1,
      Items: [
        {
          Id: mine,
          ForwarderIdentifier: owner.id,
          Url: `${receiver.url}/p5/mine`,
          HeaderName: "apiKey",
          HeaderValue: "••••0006",
        },
      ],
    });
    await createRule(owner, urlRule(mine));
    // Support routes stay support's.
    const support = await call(stack.url, "GET", ENDPOINTS, { token: owner.token });
    expect(support.status).toBe(403);
  });
});

// ---- point 21 ---------------------------------------------------------------------------------------
interface StoredEmail {
  subject: string;
  destination: { to: string[] };
  body: { html?: string; text?: string };
}
async function mailsTo(address: string): Promise<StoredEmail[]> {
  const store = (await (await fetch(`${stack.sesUrl}/store`)).json()) as { emails: StoredEmail[] };
  return store.emails.filter((email) => email.destination.to.includes(address));
}
const alertsTo = async (address: string) =>
  (await mailsTo(address)).filter((mail) => mail.subject.startsWith("AWB "));
function emailRule(overrides: Record<string, unknown> = {}) {
  return urlRule("", {
    ChannelType: "Email",
    HeaderItems: "AWB,MIL,NTF",
    FormatType: "Html",
    Event: "DEP",
    ...overrides,
  });
}
const quiet = () => new Promise((resolve) => setTimeout(resolve, 2000));

describe("point 21: no e-mail amplification", () => {
  it("refuses an identical rule with 409 (also one differing only in case, event order or Enabled)", async () => {
    const owner = forwarder(21);
    const first = await createRule(owner, emailRule({ NotifyTo: "dup@p21.example", Event: "DEP,ARR" }));
    for (const twin of [
      emailRule({ NotifyTo: "dup@p21.example", Event: "DEP,ARR" }),
      emailRule({ NotifyTo: "DUP@p21.example", Event: "ARR,DEP" }),
      emailRule({ NotifyTo: "dup@p21.example", Event: "DEP,ARR", Enabled: false }),
    ]) {
      const refused = await call(stack.url, "POST", RULES, { token: owner.token, json: twin });
      expect(refused.status, refused.text).toBe(409);
      expect((refused.body as { detail: string }).detail).toContain(`Rule ${first.Id} `);
    }
    // Different filters are different rules; a PUT turning one into the other's twin is refused too.
    const other = await createRule(owner, emailRule({ NotifyTo: "dup@p21.example", Event: "DEP" }));
    const put = await call(stack.url, "PUT", `${RULES}/${other.Id}`, {
      token: owner.token,
      json: emailRule({ NotifyTo: "dup@p21.example", Event: "DEP,ARR" }),
    });
    expect(put.status, put.text).toBe(409);
    const listed = await call(stack.url, "GET", RULES, { token: owner.token });
    expect((listed.body as { TotalItems: number }).TotalItems).toBe(2);
  });

  it(
    "an unconfirmed address gets one confirmation e-mail and no alert; after the link, one e-mail per event",
    async () => {
      const owner = forwarder(22);
      const address = "ops@p21-third-party.example";
      // Three overlapping rules naming the address (all would match a DEP).
      await createRule(owner, emailRule({ NotifyTo: address }));
      await createRule(owner, emailRule({ NotifyTo: address, Event: "DEP,ARR" }));
      await createRule(owner, emailRule({ NotifyTo: address, AirlinePrefix: "020" }));

      await waitFor(async () => (await mailsTo(address)).length >= 1);
      await shipAndDepart(serial(2101), owner);
      await quiet();
      const before = await mailsTo(address);
      expect(before.map((mail) => mail.subject)).toEqual([`Confirm shipment alerts from ${owner.id}`]);
      expect(before[0]?.body.text).toMatch(/\/email-confirmations\/[A-Za-z0-9_-]{43}\n/);

      // The link: a token of 256 bits; a made-up one is refused. Opening it changes nothing (a link
      // scanner confirms nothing); the page's button (a POST) confirms, once.
      const bogus = await fetch(`${stack.url}/email-confirmations/${"A".repeat(43)}`);
      expect(bogus.status).toBe(404);
      const link =
        /https?:\/\/\S+\/email-confirmations\/[A-Za-z0-9_-]+/.exec(before[0]?.body.text ?? "")?.[0] ?? "";
      for (let i = 0; i < 2; i++) {
        const page = await fetch(link);
        expect(page.status).toBe(200);
        expect(page.headers.get("content-type")).toContain("text/html");
        expect(await page.text()).toContain('<form method="post">');
      }
      await shipAndDepart(serial(2104), owner);
      await quiet();
      expect(await alertsTo(address)).toEqual([]);
      const confirm = () =>
        fetch(link, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: "",
        });
      const confirmed = await confirm();
      expect(confirmed.status).toBe(200);
      expect(await confirmed.text()).toContain(`Confirmed: ${address}`);
      expect((await confirm()).status).toBe(404);
      expect((await fetch(link)).status).toBe(404);

      // The two DEPs held before the confirmation go out now, by themselves (queued together: either
      // may come first), one e-mail each.
      const held = [2101, 2104].map((n) => `AWB 020-${serial(n)} | MIL DEP | NTF Event`);
      await waitFor(async () => (await alertsTo(address)).length >= 2);
      // One e-mail per event, though three rules match.
      await shipAndDepart(serial(2102), owner);
      await waitFor(async () => (await alertsTo(address)).length >= 3);
      await arrive(serial(2102));
      await waitFor(async () => (await alertsTo(address)).length >= 4);
      await quiet();
      const subjects = (await alertsTo(address)).map((mail) => mail.subject);
      expect([...subjects.slice(0, 2)].sort()).toEqual(held);
      expect(subjects.slice(2)).toEqual([
        `AWB 020-${serial(2102)} | MIL DEP | NTF Event`,
        `AWB 020-${serial(2102)} | MIL ARR | NTF Event`,
      ]);
      // Another rule naming the confirmed address mails no new link.
      await createRule(owner, emailRule({ NotifyTo: address, Event: "RCF" }));
      await quiet();
      expect((await mailsTo(address)).filter((mail) => mail.subject.startsWith("Confirm"))).toHaveLength(1);
    },
    scaled(60_000),
  );

  it("a disabled rule mails no link; enabling it does", async () => {
    const owner = forwarder(24);
    const rule = await createRule(owner, emailRule({ NotifyTo: "later@p21.example", Enabled: false }));
    await quiet();
    expect(await mailsTo("later@p21.example")).toEqual([]);
    const enabled = await call(stack.url, "POST", `${RULES}/${rule.Id}/enable`, { token: owner.token });
    expect(enabled.status, enabled.text).toBe(200);
    await confirmNotifyTo(stack.sesUrl, "later@p21.example");
  });

  it("the DEP before the confirmation is parked, visibly, not sent", async () => {
    const owner = forwarder(23);
    const rule = await createRule(owner, emailRule({ NotifyTo: "late@p21.example" }));
    await shipAndDepart(serial(2103), owner);
    let detail = "";
    await waitFor(async () => {
      const listed = await call(stack.url, "GET", `${RULES}/${rule.Id}/deliveries`, { token: owner.token });
      const items = (listed.body as { Items: DeliveryView[] }).Items;
      detail = items[0]?.Attempts.at(-1)?.Detail ?? "";
      return items[0]?.Status === "parked";
    });
    expect(detail).toMatch(/not confirmed yet/);
    expect(await alertsTo("late@p21.example")).toEqual([]);
  });
});
