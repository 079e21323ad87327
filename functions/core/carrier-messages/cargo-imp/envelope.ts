/**
 * The envelope stage of a Cargo-IMP body: finds each message's identifier line among the lines a
 * network wraps around it, and tells the lexer where the message ends, before the message's own
 * reader sees a line.
 *
 * - Type-B envelope lines may precede any message: an address line with its priority code
 *   (`QD HDQFMLH`, `QK ...`, `QU ...`), an origin line (`.HDQRMXH 141200`, the message identity
 *   after the originator), `ZCZC` and `NNNN` (start and end of a teletype message), and SITA
 *   `=HEADER` style blocks (everything from a line starting with `=` up to `=TEXT` is skipped).
 * - EDIFACT service segments around a Cargo-IMP text (IATA's wrapping of Cargo-IMP for community
 *   systems): `UNA`, `UNB` (interchange), `UNG` (group), `UNH` (message header: its reference names
 *   the message), `UNT`, `UNE`, `UNZ`, each on its own line, several segments on one line allowed.
 *   Segments end with `'` and need no line break, so an interchange may run the service segments and
 *   the message identifier into one line (`UNB+...'UNH+MSGREF+CIMFSU:12'FSU/12`, the text on the
 *   next lines) and close the text with `'` before its trailer (`'UNT+3+MSGREF'UNZ+1+ICREF'`).
 * - A message starts at its identifier line (`FSU/13`, `FWB/16`, `FFM/8`, ...; any version of 1-3
 *   digits) and runs until the next identifier or envelope line, so several messages may share a body.
 * - Any other line outside a message is refused, naming it; so is a body without a message.
 * Each message is handed over with its type, version and reference: the Type-B origin line's message
 * identity or the EDIFACT message reference before it, else null.
 */
import type { MessageOrigin } from "../types.ts";
import { fail, isEdifactServiceSegment, type LineCursor } from "./lexer.ts";

/** A priority code (QD, QK, QU, ...) and 7- or 8-character address groups. */
const ADDRESS_LINE_RE = /^[A-Z]{2}(?: [A-Z0-9]{7,8})+$/;
/** `.` and the originator's address, then the message identity: `.HDQRMXH 141200`. */
const ORIGIN_LINE_RE = /^\.[A-Z0-9]{7,8}(?:[ /]|$)/;
/** UNH+<message reference>+...: the reference, up to the next `+`, `:` or `'`. */
const UNH_REFERENCE_RE = /UNH\+([^+:']{1,35})/;

export class TypeBEnvelope {
  private readonly identifier: RegExp;
  private readonly expectMessageId: string;

  /**
   * `messageTypes`: the identifiers that start a message (FSU, FWB, ...), each of 3 letters;
   * `examples`: identifiers with a version as a refusal names them ("FSU/15, FWB/17 or FFM/8").
   */
  constructor(messageTypes: readonly string[], examples: string) {
    // Anchored fixed alternatives: a hostile line cannot make it backtrack.
    this.identifier = new RegExp(`^(${messageTypes.join("|")})\\/(\\d{1,3})$`);
    this.expectMessageId = `a message identifier such as ${examples}`;
  }

  /**
   * Reads the messages of the body in order: `read(origin)` is called with the cursor just after the
   * message's identifier line and its `end` at the line that ends the message. The reader consumes
   * the message's lines; reading continues after them.
   */
  forEachMessage(cursor: LineCursor, read: (origin: MessageOrigin) => void): void {
    const { lines } = cursor;
    let inSitaHeader = false;
    let messages = 0;
    let reference: string | null = null;
    while (cursor.index < lines.length) {
      const line = lines[cursor.index] as string;
      if (line === "") {
        cursor.index++;
        continue;
      }
      const id = this.identifier.exec(line);
      if (id !== null) {
        cursor.index++;
        inSitaHeader = false;
        messages++;
        cursor.end = this.messageEnd(lines, cursor.index);
        read({ type: id[1] as string, version: id[2] as string, id: reference });
        continue;
      }
      if (line.charCodeAt(0) === 0x3d) {
        // SITA "=HEADER", "=PRIORITY", ... blocks end with "=TEXT", after which the message follows.
        inSitaHeader = line !== "=TEXT";
      } else if (inSitaHeader) {
        // inside a SITA header block: its lines are the network's
      } else if (ORIGIN_LINE_RE.test(line)) {
        // ".HDQRMXH 141200": the originator and the message identity.
        reference = line.slice(1).trim();
      } else if (isEdifactServiceSegment(line)) {
        const unh = UNH_REFERENCE_RE.exec(line);
        if (unh !== null) reference = unh[1] as string;
        // The message identifier right after the last segment's terminator starts the message.
        const after = this.identifier.exec(line.slice(line.lastIndexOf("'") + 1));
        if (after !== null && line.includes("'")) {
          cursor.index++;
          messages++;
          cursor.end = this.messageEnd(lines, cursor.index);
          read({ type: after[1] as string, version: after[2] as string, id: reference });
          continue;
        }
      } else if (ADDRESS_LINE_RE.test(line)) {
        reference = null; // a new Type-B envelope starts
      } else if (line !== "NNNN" && line !== "ZCZC") {
        fail(cursor.lineNo, this.expectMessageId, line);
      }
      cursor.index++;
    }
    if (messages === 0) fail(cursor.endLineNo, this.expectMessageId, "end of message");
  }

  /** Index of the first line from `from` on that ends the message (or the number of lines). */
  private messageEnd(lines: readonly string[], from: number): number {
    for (let i = from; i < lines.length; i++) {
      const line = lines[i] as string;
      if (line !== "" && this.isBoundary(line)) return i;
    }
    return lines.length;
  }

  private isBoundary(line: string): boolean {
    // "=" starts SITA header lines; "." and an address the origin line; a letter may start an
    // identifier, an address line, an EDIFACT service segment or the teletype start and end.
    if (line.charCodeAt(0) === 0x3d || ORIGIN_LINE_RE.test(line)) return true;
    return (
      this.identifier.test(line) ||
      line === "NNNN" ||
      line === "ZCZC" ||
      isEdifactServiceSegment(line) ||
      ADDRESS_LINE_RE.test(line)
    );
  }
}
