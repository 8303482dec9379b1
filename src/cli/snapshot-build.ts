// dist/snapshot-build.cjs: builds rtk's startup snapshots into the user's cache.
//   snapshot-build.cjs <entry> <node> <dist>   started detached by a plain start (see snapshot-cache.ts)
//   snapshot-build.cjs --install               at install (npm's postinstall): for the first node on
//                                              PATH, as the launcher finds it; never fails the install
//   snapshot-build.cjs --code-cache <dist> <dir>    the V8 code caches of dist's bundles into dir, for the Node running this
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { setPriority, tmpdir } from "node:os";
import { join, sep } from "node:path";
import { buildSnapshots, pruneSnapshots } from "./snapshot-cache.js";
import { cacheIn, CODE_CACHES, compileForCache } from "./code-cache.js";

function main(args: string[]): number {
  if (args[0] === "--install") return install();
  if (args[0] === "--code-cache" && args[1] && args[2]) return codeCaches(args[1], args[2]);
  const [entry, node, dist] = args;
  if (!entry || !node || !dist) {
    process.stderr.write("usage: snapshot-build.cjs <cache entry> <node> <dist> | --install\n");
    return 2;
  }
  try {
    // In the background of an agent's commands: behind them for the CPU.
    setPriority(19);
  } catch {
    // not allowed here: build at the usual priority
  }
  const r = buildSnapshots(entry, node, dist, spawnSync);
  if (r.ok) {
    try {
      pruneSnapshots(entry, node, dist);
    } catch {
      // a cache that cannot be swept still works
    }
  } else if (r.why !== "busy") process.stderr.write(`rtk: no startup snapshot: ${r.why}\n`);
  return r.ok || r.why === "busy" ? 0 : 1;
}

/**
 * The code caches of the bundles in `dist` that start from a snapshot (the full CLI
 * and the reports), written into `dir` when this process ends. The full CLI does
 * what most meta-commands do (the parser, the registry, the permission rules) in an
 * empty home first: the warm-up reads no config of the user's and leaves no stamp or record.
 */
function codeCaches(dist: string, dir: string): number {
  const home = mkdtempSync(join(tmpdir(), "rtk-code-cache-"));
  process.once("exit", () => rmSync(home, { recursive: true, force: true }));
  Object.assign(process.env, { HOME: home, XDG_CONFIG_HOME: home, XDG_DATA_HOME: home, XDG_CACHE_HOME: home, RTK_NO_TRACK: "1" });
  const loaded = CODE_CACHES.map((c) => ({ ...c, made: compileForCache(join(dist, c.bundle)) }));
  process.once("exit", () => {
    for (const c of loaded) c.made.save(cacheIn(dir, c.bundle));
  });
  for (const c of loaded) if (c.warm) (c.made.exports as { run(argv: string[]): void }).run(c.warm);
  return 0;
}

/** The entry the launcher would look for (the same rules as bin/rtk), or null when it would not look. */
function launcherEntry(dist: string, env: NodeJS.ProcessEnv): { entry: string; node: string } | null {
  let node: string | null = null;
  for (const p of (env["PATH"] ?? "").split(":")) {
    if (!p.startsWith("/")) continue;
    const f = join(p, "node");
    try {
      if (statSync(f).isFile()) {
        node = f;
        break;
      }
    } catch {
      // not here
    }
  }
  const xdg = env["XDG_CACHE_HOME"];
  const home = env["HOME"];
  const cache = xdg?.startsWith("/") ? join(xdg, "rtk") : home?.startsWith("/") ? join(home, ".cache", "rtk") : null;
  if (!node || !cache || !existsSync(join(dist, "build-id"))) return null;
  const id = readFileSync(join(dist, "build-id"), "utf8").trim();
  return { entry: `${cache}/snapshots/${id}${node}`, node };
}

function install(): number {
  const dist = __dirname;
  try {
    // A checkout builds its own snapshots (npm run build); this is for an installed package.
    if (!realpathSync(dist).split(sep).includes("node_modules")) return 0;
    const at = launcherEntry(dist, process.env);
    if (!at) return 0;
    buildSnapshots(at.entry, at.node, dist, spawnSync);
  } catch {
    // Never required: the first run builds it instead.
  }
  return 0;
}

process.exitCode = main(process.argv.slice(2));
