/**
 * The envelope stage of a Cargo-IMP body: finds each message's identifier line among the lines a
 * Type-B network wraps around it, and tells the lexer where the message ends, before the message's
 * own reader sees a line.
 *
 * - Type-B envelope lines may precede any message: an address line (`QD HDQFMLH`), an origin line
 *   (`.HDQRMXH 141200`), `NNNN`, and SITA `=HEADER` style blocks (everything from a line starting
 *   with `=` up to `=TEXT` is skipped).
 * - A message starts at its identifier line (`FSU/13`, `FSA/14`, `FWB/16`, `FFR/8`, `FFA/4`; any
 *   version of 1-3 digits) and runs until the next identifier or envelope line, so several messages
 *   may share a body.
 * - Any other line outside a message is refused, naming it; so is a body without a message.
 */
import { fail, type LineCursor } from "./lexer.ts";

const ADDRESS_LINE_RE = /^[A-Z]{2}(?: [A-Z0-9]{7})+$/;
const EXPECT_MESSAGE_ID = "a message identifier such as FSU/13, FWB/16, FFR/8 or FFA/4";

export class TypeBEnvelope {
  private readonly identifier: RegExp;

  /** `messageTypes`: the identifiers that start a message (FSU, FWB, ...), each of 3 letters. */
  constructor(messageTypes: readonly string[]) {
    // Anchored fixed alternatives: a hostile line cannot make it backtrack.
    this.identifier = new RegExp(`^(${messageTypes.join("|")})\\/(\\d{1,3})$`);
  }

  /**
   * Reads the messages of the body in order: `read(type)` is called with the cursor just after the
   * message's identifier line and its `end` at the line that ends the message. The reader consumes
   * the message's lines; reading continues after them.
   */
  forEachMessage(cursor: LineCursor, read: (type: string) => void): void {
    const { lines } = cursor;
    let inSitaHeader = false;
    let messages = 0;
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
        read(id[1] as string);
        continue;
      }
      if (line.charCodeAt(0) === 0x3d) {
        // SITA "=HEADER", "=PRIORITY", ... blocks end with "=TEXT", after which the message follows.
        inSitaHeader = line !== "=TEXT";
      } else if (
        !inSitaHeader &&
        line.charCodeAt(0) !== 0x2e &&
        line !== "NNNN" &&
        !ADDRESS_LINE_RE.test(line)
      ) {
        fail(cursor.lineNo, EXPECT_MESSAGE_ID, line);
      }
      cursor.index++;
    }
    if (messages === 0) fail(cursor.endLineNo, EXPECT_MESSAGE_ID, "end of message");
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
    const first = line.charCodeAt(0);
    // "=" and "." start envelope lines; a letter may start an identifier or an address line.
    if (first === 0x3d || first === 0x2e) return true;
    return this.identifier.test(line) || line === "NNNN" || ADDRESS_LINE_RE.test(line);
  }
}
