/**
 * The line reader every Cargo-IMP message shares: the body as lines, and a cursor that reads the lines
 * of one message at a time. What ends a message (the next identifier or an envelope line) is the
 * envelope stage's to say (envelope.ts): it sets the cursor's `end` before a message is read.
 *
 * - Lines may end in LF, CRLF or CR alone; trailing spaces and blank lines are ignored. A line longer
 *   than 69 characters (after trailing spaces) is an error, as Type-B networks would cut it; EDIFACT
 *   service segments (UNB, UNH, ...), which are no Type-B lines, may be longer.
 * - The transmission control characters SOH, STX and ETX that frame a Type-B heading and text are
 *   dropped wherever they stand; a byte-order mark before the first line is dropped too.
 */
import { MessageParseError } from "../../errors.ts";
import { type MessageOrigin, truncateFound } from "../types.ts";

const MAX_LINE_LENGTH = 69;
const LINE_END_RE = /\r\n|\r|\n/;
/** A CR not followed by LF: a body whose lines end in CR alone (or that mixes them in). */
const LONE_CR_RE = /\r(?!\n)/;
/**
 * UNA, or an EDIFACT service segment tag (UNB, UNG, UNH, UNT, UNE, UNZ) and its `+`; after a segment
 * terminator `'` when the line goes on from the Cargo-IMP text it closes (`'UNT+3+MSGREF'UNZ+...`).
 */
const EDIFACT_SERVICE_RE = /^'?(?:UNA|UN[BGHTEZ]\+)/;

/**
 * An EDIFACT service segment line (interchange, group or message header or trailer) around a
 * Cargo-IMP text: the envelope stage reads it; its length is not a Type-B line's.
 */
export function isEdifactServiceSegment(line: string): boolean {
  return EDIFACT_SERVICE_RE.test(line);
}

/** A Cargo-IMP parse error (400) naming the 1-based line and what was expected there. */
export function fail(line: number, expected: string, found: string): never {
  throw new MessageParseError(line, expected, truncateFound(found));
}

/** Most skipped-line notes kept per message: a body of garbage lines must not grow every stored status. */
const MAX_SKIPPED_NOTES = 5;
const MORE_SKIPPED_RE = /^and (\d+) more lines skipped$/;

/**
 * Notes that line `line` of `message` was skipped (`what`: why, in words), kept with the message's
 * provenance; past MAX_SKIPPED_NOTES the last note counts the rest ("and 3 more lines skipped").
 */
export function noteSkipped(message: MessageOrigin, line: number, what: string): void {
  const notes = message.skipped ?? [];
  message.skipped = notes;
  if (notes.length < MAX_SKIPPED_NOTES) {
    notes.push(`line ${line}: ${what}`);
    return;
  }
  const more = MORE_SKIPPED_RE.exec(notes[MAX_SKIPPED_NOTES - 1] as string);
  notes[MAX_SKIPPED_NOTES - 1] = `and ${more === null ? 2 : Number(more[1]) + 1} more lines skipped`;
}

/** Lines of the body with trailing whitespace (and a CR) removed; index i is line i + 1. */
export class LineCursor {
  readonly lines: string[];
  /** Index of the next line to read. */
  index = 0;
  /** Index of the line that ends the message being read (a boundary line, or the number of lines). */
  end: number;

  constructor(text: string) {
    const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
    // Most bodies end lines in LF or CRLF (the CR is trimmed below); only a CR alone needs the pattern.
    this.lines = LONE_CR_RE.test(body) ? body.split(LINE_END_RE) : body.split("\n");
    for (let i = 0; i < this.lines.length; i++) {
      const raw = this.lines[i] as string;
      const trimmed = withoutTypeBControls(raw).trimEnd();
      this.lines[i] = trimmed;
      if (trimmed.length > MAX_LINE_LENGTH && !isEdifactServiceSegment(trimmed)) {
        fail(i + 1, `a line of at most ${MAX_LINE_LENGTH} characters`, trimmed);
      }
    }
    this.end = this.lines.length;
  }

  /** 1-based number of the line at the cursor (one past the last line at the end of the body). */
  get lineNo(): number {
    return this.index + 1;
  }

  /** Line to blame when the message ends early: the boundary line, or the line after the last text. */
  get endLineNo(): number {
    if (this.index < this.lines.length) return this.index + 1;
    let last = this.lines.length;
    while (last > 0 && this.lines[last - 1] === "") last--;
    return Math.max(1, Math.min(last + 1, this.lines.length));
  }

  /** What stands where the message ended: the boundary line, or "end of message". */
  get endText(): string {
    return this.lines[this.index] ?? "end of message";
  }

  /** Next non-blank line of the current message, or undefined at its end. */
  peekInMessage(): string | undefined {
    while (this.index < this.end && this.lines[this.index] === "") this.index++;
    return this.index < this.end ? this.lines[this.index] : undefined;
  }

  /** Consumes and returns the next line of the message; fails with `expected` at its end. */
  expectLine(expected: string): string {
    const line = this.peekInMessage();
    if (line === undefined) fail(this.endLineNo, expected, this.endText);
    this.index++;
    return line;
  }

  /** Skips `/` continuation lines of the segment just read. */
  skipContinuations(): void {
    for (let line = this.peekInMessage(); line !== undefined && line.charCodeAt(0) === 0x2f; ) {
      this.index++;
      line = this.peekInMessage();
    }
  }
}

/** SOH, STX and ETX frame a Type-B heading and text on the wire; they carry nothing of the message. */
function withoutTypeBControls(line: string): string {
  let kept = "";
  let from = 0;
  for (let i = 0; i < line.length; i++) {
    const c = line.charCodeAt(i);
    if (c >= 1 && c <= 3) {
      kept += line.slice(from, i);
      from = i + 1;
    }
  }
  return from === 0 ? line : kept + line.slice(from);
}
