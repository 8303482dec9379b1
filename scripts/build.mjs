// Bundles the CLI and the library into dist/ so that no run of rtk loads
// unbundled node_modules, then builds the V8 startup snapshot of the hot path
// (rewrite, hook) that the launcher (bin/rtk) starts from. Parser validations
// are skipped in the bundles.
import { build } from "esbuild";
import { spawnSync } from "node:child_process";
import { chmodSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  sourcemap: false,
  legalComments: "none",
  minifySyntax: true,
  define: { RTK_BUNDLED: "true", RTK_VERSION: JSON.stringify(pkg.version) },
  logLevel: "warning",
};

await Promise.all([
  build({ ...common, entryPoints: ["src/cli/entry.ts"], outfile: "dist/rtk.cjs", format: "cjs", banner: { js: "#!/usr/bin/env node" } }),
  // The full CLI as a module, for the snapshot start of every command but the hot ones.
  build({ ...common, entryPoints: ["src/cli/main.ts"], outfile: "dist/rtk-main.cjs", format: "cjs" }),
  // Minified: the snapshot keeps the script's source, and a smaller heap starts faster.
  build({ ...common, entryPoints: ["src/cli/hot.ts"], outfile: "dist/rtk-hot.cjs", format: "cjs", minify: true }),
  build({ ...common, entryPoints: ["src/cli/run-entry.ts"], outfile: "dist/rtk-run.cjs", format: "cjs", minify: true }),
  build({ ...common, entryPoints: ["src/lib.ts"], outfile: "dist/lib.cjs", format: "cjs" }),
  build({ ...common, entryPoints: ["src/lib.ts"], outfile: "dist/lib.mjs", format: "esm" }),
]);
chmodSync("dist/rtk.cjs", 0o755);

// The snapshots only work with the Node binary that built them: record which one,
// with the stamp's modification time set to the binary's, for the launcher to compare.
// rtk.blob is the hot path (rewrite, hook); rtk-run.blob runs tools.
rmSync("dist/rtk.blob.node", { force: true });
let built = true;
for (const [blob, entry] of [["dist/rtk.blob", "dist/rtk-hot.cjs"], ["dist/rtk-run.blob", "dist/rtk-run.cjs"]]) {
  rmSync(blob, { force: true });
  const snap = spawnSync(process.execPath, ["--snapshot-blob", blob, "--build-snapshot", entry], {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, RTK_DISABLED: "" },
  });
  if (snap.status !== 0) {
    built = false;
    process.stderr.write(`build: no startup snapshot ${blob} (rtk starts from the plain bundle): ${snap.stderr}\n`);
  }
}
if (built) {
  writeFileSync("dist/rtk.blob.node", process.execPath + "\n");
  const { atime, mtime } = statSync(process.execPath);
  utimesSync("dist/rtk.blob.node", atime, mtime);
} else {
  rmSync("dist/rtk.blob", { force: true });
  rmSync("dist/rtk-run.blob", { force: true });
}
