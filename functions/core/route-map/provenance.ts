/**
 * Where every actual came from: the channel a message arrived by, the message as the carrier named
 * it (type and version, its own reference), the carrier, when we received it, and whether the time
 * was the carrier's or taken from the receipt. Stored with each status (short keys: every status of
 * every shipment carries one, and DynamoDB bills by size), shown in the history (each snapshot and
 * status message) and kept with the raw message under the receipt id, for support.
 */
import { createHash } from "node:crypto";
import type { CarrierReport } from "../carrier-messages/types.ts";
import { toPair } from "../time/station-time.ts";
import type { Provenance } from "./spec-types.ts";

/** How a message reached us: posted to the API, by e-mail, fetched after a ONE Record notification. */
export type ReceiptChannel = "api" | "email" | "onerecord";

/** One received body (or ONE Record document): its id is the key of its raw message. */
export interface Receipt {
  /** `<yyyymmddThhmmssZ>-<10 hex>`: the receipt time and a hash of channel, carrier and body. */
  id: string;
  channel: ReceiptChannel;
  /** ISO UTC. */
  at: string;
}

/** Stored with each status (one-letter keys and codes: see the module's comment). */
export interface StoredProvenance {
  /** Channel: "a" API, "e" e-mail, "o" ONE Record. */
  c: "a" | "e" | "o";
  /** The message: "FSU/15", "XFSU/3", "LogisticsEvent/3.0"; the report's source ("FSU/DEP") when it did not say. */
  m: string;
  /** The carrier's own reference of the message, when it gave one. */
  i?: string;
  /** The receipt id (its time is the receipt time). */
  r: string;
  /** Absent: the report gave its time. 1: it gave none, the actual is the receipt time. 2: it reports no actual (a booking). */
  n?: 1 | 2;
  /** Lines of the message the parser skipped ("line 15: free text without its leading /"); absent when none. */
  s?: string[];
}

const CHANNEL_CODES = { api: "a", email: "e", onerecord: "o" } as const satisfies Record<
  ReceiptChannel,
  StoredProvenance["c"]
>;

/** The id of a receipt: its time to the second, then a hash of what was received, so a retry keeps it. */
export function receiptOf(channel: ReceiptChannel, carrierPrefix: string, at: string, body: string): Receipt {
  const iso = new Date(Date.parse(at)).toISOString();
  const stamp = `${iso.slice(0, 19).replace(/[-:]/g, "")}Z`;
  const hash = createHash("sha256")
    .update(`${channel}\n${carrierPrefix}\n${body}`)
    .digest("hex")
    .slice(0, 10);
  return { id: `${stamp}-${hash}`, channel, at };
}

/** The receipt time a receipt id carries, ISO UTC ("…Z"); null for an id in another form. */
export function receiptTime(receiptId: string): string | null {
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z-[0-9a-f]+$/.exec(receiptId);
  return m ? `${m[1]}-${m[2]}-${m[3]}T${m[4]}:${m[5]}:${m[6]}Z` : null;
}

/** The message a report came from, as the carrier named it; its `source` when the parser did not say. */
export function messageOf(report: CarrierReport): string {
  const message = report.message;
  if (!message) return report.source;
  return message.version ? `${message.type}/${message.version}` : message.type;
}

/** Whether the report said when it happened: a status line without a time, and an FWB, did not. */
export function timeGiven(report: CarrierReport): boolean | null {
  switch (report.kind) {
    case "status":
    case "other-status":
    case "cancellation":
      return report.time !== null;
    case "awb-data":
      // The FWB milestone's actual is the FWB's receipt.
      return false;
    case "booking":
      return null;
  }
}

/** The provenance stored with a report's actual. */
export function storedProvenance(report: CarrierReport, receipt: Receipt): StoredProvenance {
  const id = report.message?.id ?? null;
  const given = timeGiven(report);
  return {
    c: CHANNEL_CODES[receipt.channel],
    m: messageOf(report),
    ...(id !== null && id !== "" ? { i: id } : {}),
    r: receipt.id,
    ...(given === false ? { n: 1 as const } : given === null ? { n: 2 as const } : {}),
    ...(report.message?.skipped?.length ? { s: [...report.message.skipped] } : {}),
  };
}

const CHANNEL_NAMES = { a: "Api", e: "Email", o: "OneRecord" } as const satisfies Record<
  StoredProvenance["c"],
  Provenance["Channel"]
>;

/** The history's rendering of a stored provenance, its receipt time at `station`. */
export function renderProvenance(stored: StoredProvenance, carrier: string, station: string): Provenance {
  const at = receiptTime(stored.r) ?? "1970-01-01T00:00:00Z";
  return {
    Channel: CHANNEL_NAMES[stored.c],
    Message: stored.m,
    MessageId: stored.i ?? null,
    Carrier: carrier,
    ReceivedAt: toPair(station, at),
    TimeGiven: stored.n === 2 ? null : stored.n !== 1,
    StatusRequestReply: /^FSA(\/|$)/.test(stored.m),
    ReceiptId: stored.r,
    SkippedLines: stored.s ?? [],
  };
}
