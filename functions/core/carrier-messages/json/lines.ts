/**
 * The JSON path -> line reader: where a value stands in a JSON body as the carrier wrote it, so a
 * refusal or a report can name the line of a field (`Messages[1].Origin`, `@graph[0].cargo:eventDate`).
 * JSON.parse keeps no positions, so the text JSON.parse has accepted is scanned once more.
 *
 * Both scanners keep their own stack of open containers instead of recursing, so a body nested
 * 100,000 levels deep (200 KB, under the 256 KB limit) costs no call stack. That is why this is not
 * jsonc-parser's parseTree with offsets: a recursive-descent parser, it throws RangeError (an answer
 * of 500) on an array nested 10,000 levels deep, a 20 KB body.
 */

/** A step of a path into a JSON value: a member name or an array index. */
export type PathKey = string | number;

/** A path as refusals name it: `Messages[0].Legs[1]`, `(body)` for the whole body. */
export function fieldName(path: readonly PathKey[]): string {
  let name = "";
  for (const key of path) name += typeof key === "number" ? `[${key}]` : name === "" ? key : `.${key}`;
  return name === "" ? "(body)" : name;
}

/** Skips whitespace from `pos`, counting lines; returns the new position and line. */
function skipSpaceAt(text: string, pos: number, line: number): [number, number] {
  let p = pos;
  let l = line;
  for (; p < text.length; p++) {
    const c = text.charCodeAt(p);
    if (c === 10) l++;
    else if (c !== 32 && c !== 9 && c !== 13) break;
  }
  return [p, l];
}

/** Position just after the JSON string starting at `pos` (a `"`). */
function stringEnd(text: string, pos: number): number {
  for (let p = pos + 1; p < text.length; p++) {
    const c = text.charCodeAt(p);
    if (c === 92) p++;
    else if (c === 34) return p + 1;
  }
  return text.length;
}

/**
 * Line (1-based) where each value starts in a JSON text known to be valid, keyed by its field path
 * (`Messages[0].Legs[1]`, `(body)` for the whole body), down to `maxDepth` keys. One pass with an
 * explicit stack of open containers (no recursion), so every report of a large body can name its line.
 */
export function jsonValueLines(text: string, maxDepth = 5): Map<string, number> {
  const lines = new Map<string, number>();
  // One frame per open container: its kind and the index of the next array element.
  const frames: { array: boolean; index: number }[] = [];
  const path: PathKey[] = [];
  let pos = 0;
  let line = 1;
  let expectValue = true;
  while (pos < text.length) {
    [pos, line] = skipSpaceAt(text, pos, line);
    if (pos >= text.length) break;
    const c = text[pos];
    if (expectValue) {
      if (path.length <= maxDepth) lines.set(fieldName(path), line);
      if (c === "{" || c === "[") {
        pos++;
        [pos, line] = skipSpaceAt(text, pos, line);
        const close = c === "{" ? "}" : "]";
        if (text[pos] === close) {
          pos++;
          expectValue = false;
          continue;
        }
        frames.push({ array: c === "[", index: 0 });
        if (c === "[") {
          path.push(0);
          continue; // the first element
        }
        // An object: read its first key below.
      } else {
        if (c === '"') pos = stringEnd(text, pos);
        else while (pos < text.length && !",]} \t\r\n".includes(text[pos] as string)) pos++;
        expectValue = false;
        continue;
      }
    } else {
      // After a value: `,` continues the container, `]`/`}` closes it.
      const frame = frames.at(-1);
      if (frame === undefined) break;
      pos++;
      if (c === ",") {
        if (frame.array) {
          frame.index++;
          path[path.length - 1] = frame.index;
          expectValue = true;
          continue;
        }
        path.pop(); // the previous key; the next one is read below
      } else {
        frames.pop();
        path.pop();
        continue;
      }
    }
    // Read an object key and its `:`; the value follows.
    [pos, line] = skipSpaceAt(text, pos, line);
    const end = stringEnd(text, pos);
    const raw = text.slice(pos, end);
    // Keys are plain in practice; JSON.parse only when escapes need decoding.
    path.push(raw.includes("\\") ? String(JSON.parse(raw)) : raw.slice(1, -1));
    [pos, line] = skipSpaceAt(text, end, line);
    pos++; // ':'
    expectValue = true;
  }
  return lines;
}

/**
 * Line (1-based) where the value at `path` starts in a JSON text known to be valid; when a key is
 * missing, the line of the object that lacks it. A small scanner without recursion: a value is
 * skipped by counting brackets outside strings, so any nesting costs no stack.
 */
export function lineOfJsonPath(text: string, path: readonly PathKey[]): number {
  let pos = 0;
  let line = 1;
  const skipSpace = (): void => {
    [pos, line] = skipSpaceAt(text, pos, line);
  };
  const skipValue = (): void => {
    skipSpace();
    const c = text[pos];
    if (c === '"') {
      pos = stringEnd(text, pos);
      return;
    }
    if (c !== "{" && c !== "[") {
      while (pos < text.length && !",]} \t\r\n".includes(text[pos] as string)) pos++;
      return;
    }
    let depth = 0;
    while (pos < text.length) {
      const d = text.charCodeAt(pos);
      if (d === 34) {
        pos = stringEnd(text, pos);
        continue;
      }
      pos++;
      if (d === 10) line++;
      else if (d === 123 || d === 91) depth++;
      else if ((d === 125 || d === 93) && --depth === 0) return;
    }
  };
  for (const key of path) {
    skipSpace();
    const containerLine = line;
    const c = text[pos];
    if (c === "{" && typeof key === "string") {
      pos++;
      let found = false;
      for (;;) {
        skipSpace();
        if (text[pos] !== '"') return containerLine;
        const start = pos;
        pos = stringEnd(text, pos);
        const name: unknown = JSON.parse(text.slice(start, pos));
        skipSpace();
        pos++; // ':'
        if (name === key) {
          found = true;
          break;
        }
        skipValue();
        skipSpace();
        if (text[pos] !== ",") return containerLine;
        pos++;
      }
      if (!found) return containerLine;
    } else if (c === "[" && typeof key === "number") {
      pos++;
      for (let i = 0; i < key; i++) {
        skipValue();
        skipSpace();
        if (text[pos] !== ",") return containerLine;
        pos++;
      }
    } else {
      return line;
    }
  }
  skipSpace();
  return line;
}
