/**
 * Confirms a NotifyTo address the way its owner would: reads the confirmation
 * e-mail the service sent it from the SES emulator, opens the link and presses the page's button. Tests that create an
 * Email rule and expect mail call this once per (forwarder, address) after creating the first rule.
 */
import { waitFor } from "../adapters/pipeline/receiver.ts";

interface StoredEmail {
  subject: string;
  destination: { to: string[] };
  body: { html?: string; text?: string };
}

const LINK = /https?:\/\/\S+?\/email-confirmations\/[A-Za-z0-9_-]+/;
const followed = new Set<string>();

/** Confirmation links mailed to `address` so far, oldest first. */
export async function confirmationLinks(sesUrl: string, address: string): Promise<string[]> {
  const store = (await (await fetch(`${sesUrl}/store`)).json()) as { emails: StoredEmail[] };
  return store.emails
    .filter(
      (email) =>
        email.destination.to.includes(address) && email.subject.startsWith("Confirm shipment alerts"),
    )
    .map((email) => LINK.exec(email.body.text ?? "")?.[0])
    .filter((link): link is string => link !== undefined);
}

/** Follows the newest link mailed to `address` not followed yet; fails if none arrives in 10 s. */
export async function confirmNotifyTo(sesUrl: string, address: string): Promise<void> {
  let link: string | undefined;
  await waitFor(async () => {
    link = (await confirmationLinks(sesUrl, address)).filter((candidate) => !followed.has(candidate)).at(-1);
    return link !== undefined;
  }, 10_000);
  if (!link) throw new Error(`no confirmation link mailed to ${address}`);
  followed.add(link);
  // As a browser does: the page (read-only), then its Confirm button (a form POST without fields).
  const page = await fetch(link);
  if (page.status !== 200) throw new Error(`opening ${link}: ${page.status} ${await page.text()}`);
  const response = await fetch(link, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: "",
  });
  if (response.status !== 200)
    throw new Error(`confirming ${address}: ${response.status} ${await response.text()}`);
}
