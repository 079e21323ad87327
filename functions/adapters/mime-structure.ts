/**
 * A received mail's MIME structure, read line by line before any parser sees it: how many entities it
 * has, how deep its multiparts nest, how long its header lines and header blocks are. A mail over
 * INBOUND_MAIL_LIMITS is refused unread, with the limit as its reason, so mailparser never meets what
 * makes it throw (more than 1,000 parts, a header of 1 MB); a mail that passes still goes through
 * mailparser, whose failure is a refusal too (functions/adapters/received-mail-store.ts). The scan
 * counts as the parser does where it matters and otherwise errs towards more: every header block is
 * an entity, the delimiters it knows are those of the multiparts still open, and a multipart or an
 * attached message that is never closed stays open to the end. It also reads the mail's own header
 * fields, so a refused mail still names its sender and subject.
 */
import type { InboundMailLimits } from "../contracts/inbound-mail.ts";

export interface HeaderField {
  name: string;
  /** Unfolded, undecoded. */
  value: string;
}

export interface MimeScan {
  /** Why the mail is refused unread (the limit it is over), or null when it may be parsed. */
  refusal: string | null;
  /** The mail's own header fields, in order (read even when the mail is refused). */
  headers: HeaderField[];
}

const CR = 13;
const LF = 10;
const DASH = 45;
/** The longest delimiter line looked at: `--`, a boundary of RFC 2046's 70 characters and trailing space. */
const MAX_DELIMITER_LINE = 2 + 998 + 2 + 998;

/** Header fields kept of a block that is over a limit. */
const MAX_FIELDS_KEPT = 500;

const kib = (bytes: number) => `${Math.round(bytes / 1024)} KB`;

function contentTypeOf(fields: readonly HeaderField[]): { type: string; boundary: string | null } {
  // The first Content-Type, as the parser takes it.
  const value = fields.find((field) => field.name.toLowerCase() === "content-type")?.value ?? "";
  const type = (value.split(";")[0] ?? "").trim().toLowerCase();
  const match = /;\s*boundary\s*=\s*(?:"([^"]*)"|([^;\s]+))/i.exec(value);
  const boundary = (match?.[1] ?? match?.[2] ?? "").trimEnd();
  return { type, boundary: boundary === "" ? null : boundary };
}

export function scanMime(raw: Buffer, limits: InboundMailLimits): MimeScan {
  let pos = 0;
  /** The next line without its line ending, or null at the end. */
  const nextLine = (): Buffer | null => {
    if (pos >= raw.length) return null;
    const newline = raw.indexOf(LF, pos);
    const end = newline < 0 ? raw.length : newline;
    const line = raw.subarray(pos, end > pos && raw[end - 1] === CR ? end - 1 : end);
    pos = newline < 0 ? raw.length : newline + 1;
    return line;
  };

  // The boundaries of the multiparts still open, innermost last.
  const open: string[] = [];
  const declared = new Set<string>();
  /** The open multipart a delimiter line belongs to (its index in `open`) and whether it closes it. */
  const delimiterOf = (line: Buffer): { index: number; closes: boolean } | null => {
    if (line.length < 3 || line.length > MAX_DELIMITER_LINE || line[0] !== DASH || line[1] !== DASH)
      return null;
    const text = line.toString("latin1").trimEnd();
    const closes = text.endsWith("--") && declared.has(text.slice(2, -2));
    const boundary = closes ? text.slice(2, -2) : text.slice(2);
    if (!declared.has(boundary)) return null;
    const index = open.lastIndexOf(boundary);
    return index < 0 ? null : { index, closes };
  };

  /**
   * One entity's header block, up to its blank line (or a delimiter, or the end). Over a limit, the
   * block is still read to its end (the mail's own fields name its sender) and the refusal returned.
   */
  const readHeaderBlock = (): { fields: HeaderField[]; refusal: string | null } => {
    const fields: HeaderField[] = [];
    let cost = 0;
    let refusal: string | null = null;
    for (;;) {
      const start = pos;
      const line = nextLine();
      if (line === null || line.length === 0) break;
      if (delimiterOf(line) !== null) {
        pos = start;
        break;
      }
      cost += Math.max(line.length + 2, 64);
      if (line.length > limits.maxHeaderLineBytes) {
        refusal ??= `a header line is longer than ${kib(limits.maxHeaderLineBytes)}`;
        continue;
      }
      if (cost > limits.maxHeaderBytes)
        refusal ??= `the header of a part is larger than ${kib(limits.maxHeaderBytes)}`;
      // Past a limit the block is only read through (a few hundred fields are all anyone looks at).
      if (refusal !== null && fields.length >= MAX_FIELDS_KEPT) continue;
      const text = line.toString("utf8");
      const last = fields[fields.length - 1];
      if ((text.startsWith(" ") || text.startsWith("\t")) && last) last.value = `${last.value}${text}`;
      else {
        const colon = text.indexOf(":");
        if (colon > 0) fields.push({ name: text.slice(0, colon).trim(), value: text.slice(colon + 1) });
      }
    }
    for (const field of fields) field.value = field.value.trim();
    return { fields, refusal };
  };

  let parts = 1;
  const top = readHeaderBlock();
  const refused = (reason: string): MimeScan => ({ refusal: reason, headers: top.fields });
  if (raw.length > limits.maxBytes) return refused(`the e-mail is larger than ${kib(limits.maxBytes)}`);
  if (top.refusal !== null) return refused(top.refusal);

  /** Opens what an entity's header declares: a multipart's boundary, an attached message's header. */
  const enter = (fields: readonly HeaderField[], messageDepth: number): string | null => {
    const { type, boundary } = contentTypeOf(fields);
    if (type.startsWith("multipart/") && boundary !== null) {
      declared.add(boundary);
      open.push(boundary);
      if (open.length + messageDepth > limits.maxDepth)
        return `its parts are nested more than ${limits.maxDepth} deep`;
    }
    if (type === "message/rfc822") {
      parts++;
      if (parts > limits.maxParts) return `it has more than ${limits.maxParts} MIME parts`;
      if (open.length + messageDepth + 1 > limits.maxDepth)
        return `its parts are nested more than ${limits.maxDepth} deep`;
      const attached = readHeaderBlock();
      return attached.refusal ?? enter(attached.fields, messageDepth + 1);
    }
    return null;
  };

  const opened = enter(top.fields, 0);
  if (opened !== null) return refused(opened);
  for (;;) {
    const line = nextLine();
    if (line === null) break;
    const delimiter = delimiterOf(line);
    if (delimiter === null) continue;
    // A delimiter of an outer multipart ends every part inside it.
    open.length = delimiter.closes ? delimiter.index : delimiter.index + 1;
    if (delimiter.closes) continue;
    parts++;
    if (parts > limits.maxParts) return refused(`it has more than ${limits.maxParts} MIME parts`);
    const part = readHeaderBlock();
    const problem = part.refusal ?? enter(part.fields, 0);
    if (problem !== null) return refused(problem);
  }
  return { refusal: null, headers: top.fields };
}

/** The header field's value (the last of that name: the one a parser keeps), or null. */
export function headerValue(headers: readonly HeaderField[], name: string): string | null {
  const wanted = name.toLowerCase();
  return [...headers].reverse().find((field) => field.name.toLowerCase() === wanted)?.value ?? null;
}

/**
 * The addresses of an address-list header (RFC 5322 section 3.4): display names, quoted strings,
 * comments and group names dropped, in order.
 */
export function addressesOf(value: string): string[] {
  const bare = value.replace(/"(?:[^"\\]|\\.)*"/g, '""').replace(/\((?:[^()\\]|\\.)*\)/g, " ");
  return bare
    .split(",")
    .map((part) => {
      const angle = /<([^<>]*)>/.exec(part);
      return (angle?.[1] ?? part.replace(/^[^:<]*:/, "").replace(/;\s*$/, "")).trim();
    })
    .filter((address) => /^[^\s@<>]+@[^\s@<>]+$/.test(address));
}

/** RFC 2047 encoded words (`=?utf-8?B?...?=`, `=?iso-8859-1?Q?...?=`) decoded; unknown charsets kept as sent. */
export function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(?==\?)/g, "$1")
    .replace(
      /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g,
      (word, charset: string, encoding: string, text: string) => {
        const bytes =
          encoding.toUpperCase() === "B"
            ? Buffer.from(text, "base64")
            : Buffer.from(
                text
                  .replace(/_/g, " ")
                  .replace(/=([0-9A-Fa-f]{2})/g, (_, hex: string) =>
                    String.fromCharCode(Number.parseInt(hex, 16)),
                  ),
                "latin1",
              );
        try {
          return new TextDecoder(charset.split("*")[0]).decode(bytes);
        } catch {
          return word;
        }
      },
    );
}
