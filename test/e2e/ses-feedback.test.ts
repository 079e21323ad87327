/**
 * Issue 12 point 5 end to end, through the real local runner: an e-mail alert goes out through the
 * SES emulator; SES's bounce of it, wrapped by SNS as the configuration set's topic delivers it, lands
 * on the local SesFeedback queue (the emulator sends no feedback of its own, so the test plays SES and
 * SNS); `ses-feedback` shows it in the rule's delivery log, and the next alert to that address is
 * logged "suppressed" and not sent.
 */
import { GetQueueUrlCommand, SendMessageCommand, SQSClient } from "@aws-sdk/client-sqs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LOCAL_CREDENTIALS, LOCAL_REGION } from "../../bin/local/emulators.ts";
import { QUEUES } from "../../functions/contracts/resources.ts";
import { waitFor } from "../adapters/pipeline/receiver.ts";
import { confirmNotifyTo } from "../support/email-confirmation.ts";
import { call, type RunningStack, startRunner, tokens } from "../support/runner.ts";
import { sesBounce, snsWrapped } from "../support/ses-feedback.ts";
import { scaled } from "../support/time.ts";
import { local, MINUTE, minuteNow } from "./route-map-helpers.ts";

const RULES = "/ffw/service/routemap/eventconfignotifier";
const ADDRESS = "bouncing-ops@fwd-bounce.example";
const OWNER = { id: "E2E-BOUNCE", code: "7000007", cass: "0077" };
const ownerToken = tokens.forwarder(OWNER.id, OWNER.code, OWNER.cass, "FRA");
const carrier = tokens.carrier("020");

let stack: RunningStack;

beforeAll(async () => {
  stack = await startRunner();
}, scaled(90_000));

afterAll(async () => {
  await stack?.stop();
});

interface DeliveryView {
  DeliveryId: string;
  Status: string;
  AwbNumber: string;
  Attempts: Array<{ Attempt: number; Outcome: string; Detail: string; HttpStatus: number | null }>;
}

async function ruleDeliveries(ruleId: number): Promise<DeliveryView[]> {
  const listed = await call(stack.url, "GET", `${RULES}/${ruleId}/deliveries`, { token: ownerToken });
  expect(listed.status, listed.text).toBe(200);
  return (listed.body as { Items: DeliveryView[] }).Items;
}

/** Waits until the rule's delivery of that AWB satisfies `settled`; fails showing the log. */
async function deliveryOf(
  ruleId: number,
  awb: string,
  settled: (delivery: DeliveryView) => boolean,
): Promise<DeliveryView> {
  let found: DeliveryView | undefined;
  try {
    await waitFor(async () => {
      found = (await ruleDeliveries(ruleId)).find((d) => d.AwbNumber === awb && settled(d));
      return found !== undefined;
    }, scaled(30_000));
  } catch (error) {
    console.error("deliveries so far", JSON.stringify(await ruleDeliveries(ruleId)));
    throw error;
  }
  if (!found) throw new Error("no delivery");
  return found;
}

/** FWB naming the owner agent, then a DEP: one DEP event for the owner's rules. */
async function departs(awbSerial: string): Promise<string> {
  const awb = `020-${awbSerial}`;
  const t = local("FRA", minuteNow() - 10 * MINUTE);
  const fwb = `FWB/16\n${awb}FRAJFK/T10K250.0MC1.5\nAGT//${OWNER.code}/${OWNER.cass}\n/ACME FORWARDING\n`;
  const dep = `FSU/13\n${awb}FRAJFK/T10K250.0\nDEP/LH400/${t.ddmmm}/FRAJFK/T10K250.0/A${t.hhmm}\n`;
  for (const body of [fwb, dep]) {
    const posted = await call(stack.url, "POST", "/carrier/messages", {
      token: carrier,
      body,
      contentType: "text/plain",
    });
    expect(posted.status, posted.text).toBe(200);
  }
  return awb;
}

async function alertsTo(address: string): Promise<number> {
  const store = (await (await fetch(`${stack.sesUrl}/store`)).json()) as {
    emails: Array<{ subject: string; destination: { to: string[] } }>;
  };
  return store.emails.filter(
    (email) => email.destination.to.includes(address) && !email.subject.startsWith("Confirm shipment alerts"),
  ).length;
}

/** Plays SES and SNS: the bounce notification as the feedback topic delivers it to its queue. */
async function bounceArrives(messageId: string): Promise<void> {
  const sqs = new SQSClient({
    endpoint: stack.sqsEndpoint,
    region: LOCAL_REGION,
    credentials: LOCAL_CREDENTIALS,
  });
  const { QueueUrl } = await sqs.send(new GetQueueUrlCommand({ QueueName: QUEUES.sesFeedback.id }));
  await sqs.send(
    new SendMessageCommand({ QueueUrl, MessageBody: snsWrapped(sesBounce(messageId, ADDRESS)) }),
  );
  sqs.destroy();
}

describe("SES bounces", () => {
  it(
    "show in the rule's delivery log, and the next alert to the address is suppressed, not sent",
    async () => {
      const created = await call(stack.url, "POST", RULES, {
        token: ownerToken,
        json: {
          ChannelType: "Email",
          NotifyTo: ADDRESS,
          HeaderItems: "AWB,MIL,NTF",
          FormatType: "Html",
          AirlinePrefix: "*",
          AwbNumber: "",
          Event: "DEP",
          EventAlert: true,
          MissedEventAlert: false,
          ProActiveAlert: false,
          ProActiveTime: 0,
          Destination: "",
          Enabled: true,
        },
      });
      expect(created.status, created.text).toBe(200);
      const ruleId = (created.body as { Id: number }).Id;
      await confirmNotifyTo(stack.sesUrl, ADDRESS);

      const first = await departs("70000011");
      const delivered = await deliveryOf(ruleId, first, (d) => d.Status === "delivered");
      expect(await alertsTo(ADDRESS)).toBe(1);
      const messageId = /accepted by SES as (\S+)/.exec(delivered.Attempts[0]?.Detail ?? "")?.[1];
      expect(messageId, JSON.stringify(delivered)).toBeDefined();

      await bounceArrives(messageId ?? "");
      const bounced = await deliveryOf(ruleId, first, (d) => d.Attempts.some((a) => a.Outcome === "bounced"));
      expect(bounced.Status).toBe("parked");
      expect(bounced.Attempts.map((a) => a.Outcome)).toEqual(["delivered", "bounced"]);
      expect(bounced.Attempts[1]?.Detail).toMatch(
        new RegExp(
          `^bounced \\(Permanent/General\\) .* for ${ADDRESS} \\(smtp; 550 5\\.1\\.1 user unknown\\); address suppressed`,
        ),
      );

      const second = await departs("70000022");
      const suppressed = await deliveryOf(ruleId, second, (d) => d.Status === "parked");
      expect(suppressed.Attempts).toEqual([
        expect.objectContaining({ Attempt: 1, Outcome: "suppressed", HttpStatus: null }),
      ]);
      expect(suppressed.Attempts[0]?.Detail).toMatch(`e-mail address ${ADDRESS} is suppressed: it bounced`);
      // Not sent, and not retried either: it stays parked, visible, with its one log entry.
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect(await alertsTo(ADDRESS)).toBe(1);
      expect((await deliveryOf(ruleId, second, () => true)).Attempts).toHaveLength(1);
    },
    scaled(120_000),
  );
});
