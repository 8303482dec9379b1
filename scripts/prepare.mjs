// npm's `prepare`: after `npm ci` / `npm install` in a checkout, for a git
// dependency (npm installs its dev dependencies first), and for
// `npm install -g <folder>` / `npm link`, which link the folder and run this
// before installing any of its dependencies. The build needs esbuild: when the
// folder has none yet, its locked dependencies are installed first.
import { spawnSync } from "node:child_process";
import { createRequire } from "node:module";

// Packing runs `prepack` (the bundles the package ships) and then this: once is enough.
if (process.env.npm_command === "pack" || process.env.npm_command === "publish") process.exit(0);

const require = createRequire(import.meta.url);
let hasEsbuild = true;
try {
  require.resolve("esbuild");
} catch {
  hasEsbuild = false;
}

if (!hasEsbuild) {
  process.stderr.write("rtk prepare: installing the build's dependencies (npm ci) before building\n");
  // The outer npm's settings for its own install (global, its prefix, omitted dev
  // dependencies) must not steer the install in this folder.
  const env = { ...process.env };
  for (const k of Object.keys(env)) {
    if (/^npm_config_(global|location|prefix|omit|include|production|only|dev|install_links|save.*)$/i.test(k) || k === "NODE_ENV") delete env[k];
  }
  const npm = process.env.npm_execpath;
  const [cmd, args] = npm ? [process.execPath, [npm]] : ["npm", []];
  const ci = spawnSync(cmd, [...args, "ci", "--include=dev", "--ignore-scripts", "--no-audit", "--no-fund"], { stdio: ["ignore", "inherit", "inherit"], env });
  if (ci.status !== 0) {
    process.stderr.write("rtk prepare: could not install the build's dependencies; run `npm ci` in this folder, then `npm run build`\n");
    process.exit(1);
  }
}

const b = spawnSync(process.execPath, ["scripts/build.mjs", "--types"], { stdio: "inherit" });
process.exit(b.status ?? 1);
