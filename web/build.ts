/**
 * Builds the web app (web/src) into a folder: index.html plus content-hashed JS and CSS. Used by the
 * local runner (served at /app/), the CDK stack (deployed to S3) and the bench (transferred size).
 * No inline script or style: the app's CSP (functions/contracts/web-app.ts) forbids them.
 * config.json is not written here: the runner serves it and the stack deploys it per environment.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { buildSync } from "esbuild";

const webRoot = dirname(fileURLToPath(import.meta.url));

export interface WebAppBuildOptions {
  outDir: string;
  /** Minified by default; tests may turn it off to read the output. */
  minify?: boolean;
}

/** Builds the app synchronously; returns the written files' names relative to outDir. */
export function buildWebAppSync({ outDir, minify = true }: WebAppBuildOptions): { files: string[] } {
  // Old hashed assets would pile up across rebuilds (and be deployed); assets/ belongs to this build.
  rmSync(join(outDir, "assets"), { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const result = buildSync({
    entryPoints: { app: join(webRoot, "src", "main.tsx") },
    bundle: true,
    outdir: join(outDir, "assets"),
    entryNames: "[name]-[hash]",
    // The station-zone table is loaded on demand (route-map pages): its own chunk, off the first page.
    splitting: true,
    chunkNames: "chunk-[hash]",
    format: "esm",
    target: ["es2022"],
    platform: "browser",
    jsx: "automatic",
    jsxImportSource: "preact",
    minify,
    sourcemap: false,
    legalComments: "none",
    metafile: true,
    write: true,
    tsconfig: join(webRoot, "tsconfig.json"),
    logLevel: "silent",
  });
  const outputs = Object.keys(result.metafile.outputs).map((path) => `assets/${basename(path)}`);
  const script = outputs.find((file) => /^assets\/app-[^/]+\.js$/.test(file));
  const style = outputs.find((file) => /^assets\/app-[^/]+\.css$/.test(file));
  if (!script || !style)
    throw new Error(`web app build produced no script or stylesheet: ${outputs.join(", ")}`);
  writeFileSync(join(outDir, "index.html"), indexHtml(script, style));
  return { files: ["index.html", ...outputs] };
}

function indexHtml(script: string, style: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>Route Map Tracker</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="${style}">
<script type="module" src="${script}"></script>
</head>
<body>
<div id="app"><noscript>The Route Map Tracker app needs JavaScript.</noscript></div>
</body>
</html>
`;
}
