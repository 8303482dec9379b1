// Bundles the CLI and the library into dist/ so that no run of rtk loads
// unbundled node_modules (the package has no run-time dependencies), then builds
// the V8 startup snapshots of a checkout (the hot path: rewrite, hook; and the
// runtime) that the launcher (bin/rtk) starts from. Parser validations are
// skipped in the bundles.
//   --no-snapshot  bundles only (what the package ships: an installed rtk makes
//                  its snapshots in the user's cache, for the Node binary that runs it)
//   --types        also the library's type declarations (dist/lib.d.ts, dist/lib.d.cts)
import { tokenizer } from "acorn";
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import { gzipSync } from "node:zlib";

const args = process.argv.slice(2);
const snapshot = !args.includes("--no-snapshot");
const types = args.includes("--types");
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
// The built-in declarative filters travel inside the bundles: their text replaces
// the module that reads them from the source tree.
const builtinDir = "src/filters/builtin";
const libraryTexts = {
  name: "library-texts",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]filters[\\/]library-texts\.ts$/ }, () => {
      const names = readdirSync(builtinDir)
        .filter((n) => n.endsWith(".toml"))
        .sort();
      const entries = names.map((n) => [n.slice(0, -".toml".length), readFileSync(join(builtinDir, n), "utf8")]);
      return {
        contents: `export const LIBRARY_TEXTS: ReadonlyMap<string, string> = new Map(${JSON.stringify(entries)});`,
        loader: "ts",
        watchFiles: names.map((n) => join(builtinDir, n)),
      };
    });
  },
};
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  sourcemap: false,
  legalComments: "none",
  minifySyntax: true,
  metafile: true,
  define: { RTK_BUNDLED: "true", RTK_VERSION: JSON.stringify(pkg.version) },
  logLevel: "warning",
  plugins: [libraryTexts],
};

// The hook path needs only which filters exist, not their code: its bundle gets
// the catalog's ids, read from the catalog itself at build time.
const filterIds = await catalogIds();
const idsOnly = {
  name: "filter-ids",
  setup(b) {
    b.onLoad({ filter: /[\\/]src[\\/]filters[\\/]catalog\.ts$/ }, () => ({
      contents: `export const FILTER_IDS: ReadonlySet<string> = new Set(${JSON.stringify(filterIds)});`,
      loader: "ts",
    }));
  },
};

// The full CLI started from the hot path's snapshot (bin/rtk starts rtk's own commands
// there) takes the parser that heap holds, built and warmed up, instead of building
// its own (chevrotain's grammar analysis, most of a meta-command's start): src/cli/hot.ts
// leaves the grammar's module at globalThis.__rtkGrammar. Elsewhere it loads its own.
const sharedGrammar = {
  name: "shared-grammar",
  setup(b) {
    b.onResolve({ filter: /[\\/]grammar[\\/]parse\.js$/ }, (a) => ({ path: resolve(a.resolveDir, a.path).replace(/\.js$/, ".ts"), namespace: "shared-grammar" }));
    b.onLoad({ filter: /.*/, namespace: "shared-grammar" }, (a) => ({
      contents: `module.exports = globalThis.__rtkGrammar || require(${JSON.stringify(a.path)});`,
      loader: "js",
      resolveDir: dirname(a.path),
    }));
  },
};

const results = await Promise.all([
  build({ ...common, entryPoints: ["src/cli/entry.ts"], outfile: "dist/rtk.cjs", format: "cjs", banner: { js: "#!/usr/bin/env node" } }),
  // The full CLI as a module, for the snapshot start of every command but the hot ones.
  build({ ...common, entryPoints: ["src/cli/main.ts"], outfile: "dist/rtk-main.cjs", format: "cjs", plugins: [sharedGrammar, libraryTexts] }),
  // Minified: the snapshot keeps the script's source, and a smaller heap starts faster.
  build({ ...common, entryPoints: ["src/cli/hot.ts"], outfile: "dist/rtk-hot.cjs", format: "cjs", minify: true, plugins: [idsOnly, libraryTexts] }),
  build({ ...common, entryPoints: ["src/cli/run-entry.ts"], outfile: "dist/rtk-run.cjs", format: "cjs", minify: true }),
  // The reports (rtk gain): the SQLite driver and the tokenizer, loaded by no other command.
  build({ ...common, entryPoints: ["src/cli/reports.ts"], outfile: "dist/rtk-report.cjs", format: "cjs" }),
  // The OTLP export (rtk gain --export otlp): the OpenTelemetry SDK, loaded by the export alone.
  build({ ...common, entryPoints: ["src/telemetry/export.ts"], outfile: "dist/rtk-otel.cjs", format: "cjs", minify: true }),
  build({ ...common, entryPoints: ["src/cli/snapshot-build.ts"], outfile: "dist/snapshot-build.cjs", format: "cjs" }),
  build({ ...common, entryPoints: ["src/lib.ts"], outfile: "dist/lib.cjs", format: "cjs" }),
  build({ ...common, entryPoints: ["src/lib.ts"], outfile: "dist/lib.mjs", format: "esm" }),
]);
chmodSync("dist/rtk.cjs", 0o755);
// The snapshots' bundles are all ASCII: one other character makes V8 hold the whole source
// as two bytes a character, and a startup snapshot restores that string at every start.
// esbuild escapes strings but not regular expressions: their characters are escaped here.
for (const f of ["dist/rtk-hot.cjs", "dist/rtk-run.cjs"]) {
  const text = asciiRegexps(readFileSync(f, "utf8"));
  const at = text.search(/[^\x00-\x7f]/);
  if (at >= 0) {
    process.stderr.write(`build: ${f} holds a character outside ASCII (write it as an escape in the source): …${text.slice(Math.max(0, at - 60), at + 20)}…\n`);
    process.exit(1);
  }
  writeFileSync(f, text);
}
// SQLite as WebAssembly, for the reports on a Node without node:sqlite: found beside the bundle that loads it.
copyFileSync(
  createRequire(import.meta.url)
    .resolve("node-sqlite3-wasm")
    .replace(/\.js$/, ".wasm"),
  "dist/node-sqlite3-wasm.wasm",
);
// o200k's ranks for the reports' exact token counts, as gzipped JSON (about 1 MB; as bundled JavaScript, several).
writeFileSync("dist/o200k_base.json.gz", gzipSync(JSON.stringify(createRequire(import.meta.url)("gpt-tokenizer/bpeRanks/o200k_base").default), { level: 9 }));
writeFileSync("dist/THIRD-PARTY-LICENSES.txt", thirdPartyLicenses(results.map((r) => r.metafile)));

// What a snapshot is made of: the launcher keys the user's snapshot cache by it.
const hash = createHash("sha256");
for (const f of ["dist/rtk-hot.cjs", "dist/rtk-run.cjs"]) hash.update(readFileSync(f));
writeFileSync("dist/build-id", `${pkg.version}-${hash.digest("hex").slice(0, 12)}\n`);

if (types) {
  // One declaration file with every type the library's exports name (the modules
  // behind them import chevrotain, which an installed rtk does not have).
  const require = createRequire(import.meta.url);
  const cli = join(require.resolve("dts-bundle-generator/package.json"), "..", "dist", "bin", "dts-bundle-generator.js");
  const d = spawnSync(process.execPath, [cli, "--silent", "--no-banner", "--project", "tsconfig.json", "-o", "dist/lib.d.ts", "src/lib.ts"], { stdio: "inherit" });
  if (d.status !== 0) {
    process.stderr.write("build: the type declarations failed\n");
    process.exit(1);
  }
  // The same declarations for `require("rtk")` (a .d.ts beside "type": "module" reads as ESM).
  copyFileSync("dist/lib.d.ts", "dist/lib.d.cts");
}

// A checkout's snapshots only work with the Node binary that built them: record
// which one, with the stamp's modification time set to the binary's, for the
// launcher to compare. rtk.blob is the hot path (rewrite, hook) and rtk's own commands; rtk-run.blob runs tools.
rmSync("dist/rtk.blob.node", { force: true });
const blobs = [
  ["dist/rtk.blob", "dist/rtk-hot.cjs"],
  ["dist/rtk-run.blob", "dist/rtk-run.cjs"],
];
let built = snapshot;
for (const [blob, entry] of blobs) {
  rmSync(blob, { force: true });
  if (!snapshot) continue;
  const snap = spawnSync(process.execPath, ["--snapshot-blob", blob, "--build-snapshot", entry], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, RTK_DISABLED: "" },
  });
  if (snap.status !== 0) {
    built = false;
    process.stderr.write(`build: no startup snapshot ${blob} (rtk starts from the plain bundle): ${snap.stderr}\n`);
  }
}
for (const f of readdirSync("dist")) if (f.endsWith(".cache")) rmSync(join("dist", f), { force: true });
if (built) {
  // Meta-commands load the full CLI (and gain the reports) from a snapshot start: their code caches sit beside the blobs.
  const cache = spawnSync(process.execPath, ["dist/snapshot-build.cjs", "--code-cache", resolve("dist"), resolve("dist")], { stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
  if (cache.status !== 0) process.stderr.write(`build: no code cache (meta-commands compile their bundles): ${cache.stderr}\n`);
  writeFileSync("dist/rtk.blob.node", process.execPath + "\n");
  // To the nanosecond, as the launcher compares it (utimes from JavaScript rounds it).
  spawnSync("touch", ["-r", process.execPath, "dist/rtk.blob.node"]);
} else {
  for (const [blob] of blobs) rmSync(blob, { force: true });
}

/**
 * The source with every character outside ASCII in a regular expression literal written as
 * `\uXXXX`, one UTF-16 unit at a time: the same pattern with or without the `u` flag
 * (`\uD83D\uDE00` is one code point there). An escaped one (`\✖`) means the character itself.
 */
function asciiRegexps(source) {
  const hex = (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`;
  let out = "";
  let last = 0;
  for (const token of tokenizer(source, { ecmaVersion: "latest", sourceType: "script", allowHashBang: true })) {
    const literal = source.slice(token.start, token.end);
    if (token.type.label !== "regexp" || !/[^\x00-\x7f]/.test(literal)) continue;
    let ascii = "";
    for (let i = 0; i < literal.length; i++) {
      const c = literal[i];
      if (c === "\\") {
        const next = literal[++i];
        ascii += next > "\x7f" ? hex(next) : c + next;
      } else ascii += c > "\x7f" ? hex(c) : c;
    }
    out += source.slice(last, token.start) + ascii;
    last = token.end;
  }
  return out + source.slice(last);
}

/** The ids of the filters in src/filters/catalog.ts. */
async function catalogIds() {
  const out = await build({ ...common, metafile: false, entryPoints: ["src/filters/catalog.ts"], format: "cjs", write: false });
  const mod = { exports: {} };
  new Function("module", "exports", "require", out.outputFiles[0].text)(mod, mod.exports, createRequire(import.meta.url));
  return [...mod.exports.FILTER_IDS].sort();
}

/** The licence of every package bundled into dist/, from its own LICENSE file. */
function thirdPartyLicenses(metafiles) {
  const roots = new Set();
  for (const m of metafiles) {
    for (const input of Object.keys(m.inputs)) {
      const at = /^(.*node_modules\/(?:@[^/]+\/)?[^/]+)\//.exec(input);
      if (at) roots.add(at[1]);
    }
  }
  const parts = [`Packages bundled into rtk's dist/ files, with their licences.\n`];
  for (const root of [...roots].sort()) {
    const p = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    const file = readdirSync(root).find((n) => /^licen[cs]e(\.(md|txt))?$/i.test(n));
    const text = file ? readFileSync(join(root, file), "utf8").trim() : `${p.license ?? "(no licence stated)"} (no licence file in the package)`;
    parts.push(`${"=".repeat(78)}\n${p.name}@${p.version} — ${p.license ?? "?"}\n${"=".repeat(78)}\n${text}\n`);
  }
  return parts.join("\n");
}
