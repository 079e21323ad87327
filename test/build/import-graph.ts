/**
 * The project's import graph as TypeScript resolves it (the repository's tsconfig.json: NodeNext,
 * explicit `.ts` extensions), for the build checks that guard the layers. Every kind of import
 * counts, type-only ones included: a type-only circle still ties the files together for a reader and
 * for the next change that turns one of the types into a value.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import ts from "typescript";

export const ROOT = join(import.meta.dirname, "..", "..");

const compilerOptions = (() => {
  const configPath = join(ROOT, "tsconfig.json");
  const config = ts.readConfigFile(configPath, ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
})();

/** Every .ts/.tsx file below `folder` (relative to the repository root), as repository-relative paths. */
export function sourceFiles(folder: string): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(join(ROOT, dir), { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name === "cdk.out") continue;
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) walk(path);
      else if (/\.tsx?$/.test(entry.name) && !entry.name.endsWith(".d.ts")) found.push(path);
    }
  };
  walk(folder);
  return found.sort();
}

export interface ImportEdge {
  /** The specifier as written. */
  specifier: string;
  /** Repository-relative path of the file it resolves to, or undefined for a package or built-in. */
  target: string | undefined;
}

/** The imports of one file (static, type-only, re-exports, dynamic `import()`), resolved. */
export function importsOf(file: string): ImportEdge[] {
  const absolute = join(ROOT, file);
  const info = ts.preProcessFile(readFileSync(absolute, "utf8"), true, true);
  return info.importedFiles.map(({ fileName }) => {
    const resolved = ts.resolveModuleName(fileName, absolute, compilerOptions, ts.sys).resolvedModule;
    const inRepository =
      resolved !== undefined &&
      !resolved.isExternalLibraryImport &&
      !resolved.resolvedFileName.includes(`${sep}node_modules${sep}`);
    return {
      specifier: fileName,
      target: inRepository ? relative(ROOT, resolved.resolvedFileName).split(sep).join("/") : undefined,
    };
  });
}

/**
 * The import circles among `files`: each strongly connected group of two or more files (or a file
 * importing itself), with one concrete cycle through it so the message shows where to cut.
 */
export function importCircles(files: readonly string[]): string[][] {
  const inside = new Set(files);
  const edges = new Map<string, string[]>();
  for (const file of files) {
    const targets = importsOf(file)
      .map((edge) => edge.target)
      .filter((target): target is string => target !== undefined && inside.has(target));
    edges.set(file, [...new Set(targets)]);
  }

  // Tarjan's strongly connected components, iterative so a deep graph cannot overflow the stack.
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const groups: string[][] = [];
  for (const start of files) {
    if (index.has(start)) continue;
    const work: { node: string; next: number }[] = [{ node: start, next: 0 }];
    index.set(start, counter);
    low.set(start, counter++);
    stack.push(start);
    onStack.add(start);
    while (work.length > 0) {
      const frame = work[work.length - 1]!;
      const targets = edges.get(frame.node) ?? [];
      if (frame.next < targets.length) {
        const target = targets[frame.next++]!;
        if (!index.has(target)) {
          index.set(target, counter);
          low.set(target, counter++);
          stack.push(target);
          onStack.add(target);
          work.push({ node: target, next: 0 });
        } else if (onStack.has(target)) {
          low.set(frame.node, Math.min(low.get(frame.node)!, index.get(target)!));
        }
        continue;
      }
      work.pop();
      const parent = work[work.length - 1];
      if (parent) low.set(parent.node, Math.min(low.get(parent.node)!, low.get(frame.node)!));
      if (low.get(frame.node) === index.get(frame.node)) {
        const group: string[] = [];
        let member: string;
        do {
          member = stack.pop()!;
          onStack.delete(member);
          group.push(member);
        } while (member !== frame.node);
        const selfImport = (edges.get(frame.node) ?? []).includes(frame.node);
        if (group.length > 1 || selfImport) groups.push(group.sort());
      }
    }
  }
  return groups.map((group) => cycleThrough(group, edges));
}

/** One shortest cycle through the group's first file, as the files in import order (first repeated last). */
function cycleThrough(group: readonly string[], edges: ReadonlyMap<string, readonly string[]>): string[] {
  const members = new Set(group);
  const start = group[0]!;
  const cameFrom = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const node = queue.shift()!;
    for (const target of edges.get(node) ?? []) {
      if (!members.has(target)) continue;
      if (target === start) {
        const path = [start];
        for (let at = node; at !== start; at = cameFrom.get(at)!) path.splice(1, 0, at);
        return [...path, start];
      }
      if (!cameFrom.has(target)) {
        cameFrom.set(target, node);
        queue.push(target);
      }
    }
  }
  return [start, start];
}
