/**
 * The page of a confirmation link, served by the API (public, no app around it), in the web app's
 * look: its header bar, a card, its button and colours. The style is inline and allowed by its hash
 * alone (CONFIRMATION_PAGE_CSP), so the page runs no script and loads nothing. "ask" says what
 * confirming means with the Confirm button (a POST to the same URL); "done" says it is confirmed and
 * what became of the alerts held meanwhile: sent now, or too old and listed.
 */
import { createHash } from "node:crypto";
import type { EmailConfirmation } from "./email-confirmations.ts";
import { HELD_ALERT_RELEVANCE_SECONDS } from "./email-confirmations.ts";
import { MILESTONE_WORDS } from "./verdict-words.ts";

/** What confirming did with the alerts held for the address (use-cases/shared/held-alerts.ts). */
export interface HeldAlertsOutcome {
  released: number;
  dropped: ReadonlyArray<{ event: string; awb: string; raisedAt: string }>;
}

const escapeHtml = (value: string) =>
  value.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/** The web app's palette and type (web/src/styles.css), for a page that stands alone. */
const STYLE = [
  ":root{font-family:system-ui,-apple-system,'Segoe UI',Roboto,'Helvetica Neue',Arial,sans-serif;",
  "font-size:16px;line-height:1.45;color:#1b2430;background:#f5f7fa}",
  "body{margin:0}",
  ".bar{padding:.6rem 1rem;background:#13294b;color:#fff;font-weight:700}",
  "main{max-width:36rem;margin:2rem auto;padding:0 .8rem}",
  ".card{background:#fff;border:1px solid #d5dbe3;border-radius:8px;padding:1rem 1.2rem}",
  "h1{font-size:1.4rem;margin:.2rem 0 .8rem}",
  ".muted{color:#4f5b6a;font-size:.95rem}",
  "button{font:inherit;border-radius:6px;padding:.45rem 1rem;border:1px solid #0b5cad;",
  "background:#0b5cad;color:#fff;cursor:pointer;min-height:2.25rem}",
  "button:focus-visible{outline:3px solid #ffbf47;outline-offset:2px}",
  ".ok{background:#e3f4e8;border:1px solid #2f8a4c;color:#14532d;border-radius:6px;padding:.5rem .8rem}",
  ".notice{background:#fff1d6;border:1px solid #d58a00;color:#6b3f00;border-radius:6px;padding:.5rem .8rem}",
  "ul{padding-left:1.2rem;margin:.4rem 0 0}",
].join("");

/**
 * The page's Content-Security-Policy: nothing loads, no script runs, only this style applies and the
 * form posts only to this origin.
 */
export const CONFIRMATION_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash("sha256")
  .update(STYLE)
  .digest("base64")}'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'`;

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
/** "14 Mar 13:41 UTC", as the app writes UTC instants. */
function utcText(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const text = date.toISOString();
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${text.slice(11, 16)} UTC`;
}

const eventText = (event: string) =>
  event in MILESTONE_WORDS ? `${MILESTONE_WORDS[event as keyof typeof MILESTONE_WORDS]} (${event})` : event;

function page(title: string, content: string): string {
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${escapeHtml(title)} · Route Map Tracker</title><style>${STYLE}</style></head>` +
    `<body><header class="bar">Route Map Tracker</header><main><div class="card">${content}</div></main></body></html>`
  );
}

function heldText(held: HeldAlertsOutcome): string {
  const parts: string[] = [];
  if (held.released > 0)
    parts.push(
      `<p class="ok">${held.released === 1 ? "1 alert" : `${held.released} alerts`} held while the address waited for this confirmation ${held.released === 1 ? "is" : "are"} on ${held.released === 1 ? "its" : "their"} way now.</p>`,
    );
  if (held.dropped.length > 0) {
    const hours = HELD_ALERT_RELEVANCE_SECONDS / 3600;
    const items = held.dropped
      .map(
        (alert) =>
          `<li>${escapeHtml(eventText(alert.event))} of ${escapeHtml(alert.awb)}, raised ${escapeHtml(utcText(alert.raisedAt))}</li>`,
      )
      .join("");
    parts.push(
      `<div class="notice"><p style="margin:0">Not sent, held for more than ${hours} h (the rule's delivery log keeps them; they can be replayed there):</p><ul>${items}</ul></div>`,
    );
  }
  return parts.join("");
}

/** The page of a link: what confirming means and the button ("ask"), or what confirming did ("done"). */
export function confirmationPage(
  confirmation: EmailConfirmation,
  state: "ask" | "done",
  held: HeldAlertsOutcome = { released: 0, dropped: [] },
): string {
  const address = escapeHtml(confirmation.address);
  const forwarder = escapeHtml(confirmation.forwarderId);
  if (state === "ask")
    return page(
      "Confirm shipment alerts",
      "<h1>Confirm shipment alerts</h1>" +
        `<p>Confirm that ${address} (alerts from forwarder ${forwarder}) may receive air-cargo shipment alerts?</p>` +
        '<form method="post"><button type="submit">Confirm</button></form>' +
        '<p class="muted">If you did not expect this, close this page: nothing will be sent to you.</p>',
    );
  return page(
    "Address confirmed",
    "<h1>Address confirmed</h1>" +
      `<p>Confirmed: ${address} receives shipment alerts from forwarder ${forwarder} from now on.</p>` +
      heldText(held),
  );
}
