/**
 * How many project files one carrier FSU/DEP runs through, from `POST /carrier/messages` to the
 * webhook POST: the union of what the three functions on that path load, by their static import
 * graphs as TypeScript resolves them (the same resolution as test/build/import-graph.ts):
 *
 *   ingest-carrier-message (the route) -> outbox stream -> match-event -> delivery queue -> deliver-job
 *
 * Counted are the files that load at run time: imports that bring only types (`import type`, or
 * every named binding `type`) are left out, since they are erased before the code runs; the same
 * count with them is printed too. Project files only (functions/, no packages); `--list` prints them.
 *
 * A second count is what the deployed functions hold of that graph: each handler bundled by esbuild
 * with tree-shaking (packages left out), counting the project files that put any code into one of
 * the three bundles. The import graph includes every adapter `functions/wiring.ts` names; the
 * bundles keep only what the three functions can call.
 *
 *   npm run bench:path-files
 */
import { readFileSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { build } from "esbuild";
import ts from "typescript";
import { figure } from "./support.ts";

const ROOT = join(import.meta.dirname, "..");
const PATH_HANDLERS = [
  "functions/handlers/http/ingest-carrier-message.ts",
  "functions/handlers/stream/match-event.ts",
  "functions/handlers/queue/deliver-job.ts",
];

const compilerOptions = (() => {
  const config = ts.readConfigFile(join(ROOT, "tsconfig.json"), ts.sys.readFile);
  return ts.parseJsonConfigFileContent(config.config, ts.sys, ROOT).options;
})();

/** The specifiers a file imports, each marked whether it brings only types. */
function importsOf(file: string): Array<{ specifier: string; typeOnly: boolean }> {
  const source = ts.createSourceFile(file, readFileSync(join(ROOT, file), "utf8"), ts.ScriptTarget.Latest);
  const found: Array<{ specifier: string; typeOnly: boolean }> = [];
  for (const statement of source.statements) {
    if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
      const clause = statement.importClause;
      const named = clause?.namedBindings;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            named !== undefined &&
            ts.isNamedImports(named) &&
            named.elements.length > 0 &&
            named.elements.every((element) => element.isTypeOnly)));
      found.push({ specifier: statement.moduleSpecifier.text, typeOnly });
    } else if (
      ts.isExportDeclaration(statement) &&
      statement.moduleSpecifier &&
      ts.isStringLiteral(statement.moduleSpecifier)
    ) {
      found.push({ specifier: statement.moduleSpecifier.text, typeOnly: statement.isTypeOnly });
    }
  }
  return found;
}

function resolved(specifier: string, from: string): string | undefined {
  const module = ts.resolveModuleName(specifier, join(ROOT, from), compilerOptions, ts.sys).resolvedModule;
  if (
    !module ||
    module.isExternalLibraryImport ||
    module.resolvedFileName.includes(`${sep}node_modules${sep}`)
  )
    return undefined;
  return relative(ROOT, module.resolvedFileName).split(sep).join("/");
}

function reached(withTypes: boolean): Set<string> {
  const seen = new Set<string>();
  const pending = [...PATH_HANDLERS];
  while (pending.length > 0) {
    const file = pending.pop() as string;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { specifier, typeOnly } of importsOf(file)) {
      if (typeOnly && !withTypes) continue;
      const target = resolved(specifier, file);
      if (target) pending.push(target);
    }
  }
  return seen;
}

const runtime = reached(false);
const withTypes = reached(true);
if (process.argv.includes("--list"))
  for (const file of [...runtime].sort()) process.stdout.write(`${file}\n`);
const outsideFunctions = [...withTypes].filter((file) => !file.startsWith("functions/"));
if (outsideFunctions.length > 0)
  throw new Error(`the path reaches outside functions/: ${outsideFunctions.join(", ")}`);
process.stdout.write(`handlers on the path: ${PATH_HANDLERS.join(", ")}\n`);
process.stdout.write(`project files with type-only imports counted too: ${withTypes.size}\n`);
figure("project files one FSU/DEP runs through (runtime import graph)", String(runtime.size));

/** Project files contributing code to the three tree-shaken bundles (packages external). */
async function bundled(): Promise<Set<string>> {
  const files = new Set<string>();
  for (const handler of PATH_HANDLERS) {
    const result = await build({
      entryPoints: [join(ROOT, handler)],
      bundle: true,
      write: false,
      metafile: true,
      platform: "node",
      format: "esm",
      target: "node20",
      packages: "external",
      outdir: join(ROOT, "cdk.out", "path-files"),
      logLevel: "silent",
    });
    for (const output of Object.values(result.metafile.outputs))
      for (const [input, { bytesInOutput }] of Object.entries(output.inputs))
        if (bytesInOutput > 0 && input.startsWith("functions/")) files.add(input);
  }
  return files;
}

const shipped = await bundled();
if (process.argv.includes("--list-bundled"))
  for (const file of [...shipped].sort()) process.stdout.write(`${file}\n`);
figure("project files with code in the path's three tree-shaken bundles", String(shipped.size));
