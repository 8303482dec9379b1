// Process start of the built CLI against a bare Node start, alternated; and the
// hot path (rtk rewrite, rtk hook claude) of rtk installed from its tarball, with
// its snapshot cache warm, beside the checkout's, per Node binary (the running one,
// and those named in RTK_BENCH_NODES, colon-separated: CI names Node 24's).
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { performance } from "node:perf_hooks";
import { alternate, roundRobin, runTimed, type Command } from "./harness/alternate.js";
import { INSTALLED } from "./gates.js";
import { rtkCli, root, scale, type Bench } from "./harness/context.js";
import { duration, sig } from "./harness/report.js";

const round3 = (x: number) => Math.round(x * 1000) / 1000;

const bench: Bench = async (ctx) => {
  await ctx.report.section("process start: rtk explain vs bare node (whole process)", ["command", "median", "min", "max"], (area) => {
    const node = process.execPath;
    const rtk: Command = { label: "rtk explain --json 'git status'", argv: [node, rtkCli, "explain", "--json", "git status"], cwd: root };
    const bare: Command = { label: "node -e 0", argv: [node, "-e", "0"], cwd: root };

    // Timing a command that fails would measure its error path.
    const once = spawnSync(rtk.argv[0]!, rtk.argv.slice(1), { encoding: "utf8" });
    const answered = once.status === 0 && parsesOk(once.stdout);
    const check = area.check("rtk explain answers parse ok", answered ? 1 : 0, "", { equals: 1 }, "correctness");
    if (!answered) {
      area.row(["rtk explain answers parse ok", "no", "", ""], check);
      return;
    }

    const rounds = scale(ctx, { full: 30, ci: 10 });
    const r = alternate(rtk, bare, { warmupRounds: 2, rounds });
    area.row([rtk.label, duration(r.a.median), duration(r.a.min), duration(r.a.max)]);
    area.row([bare.label, duration(r.b.median), duration(r.b.min), duration(r.b.max)]);
    area.row(["ratio of medians", sig(r.ratio), "", ""]);
    area.row(["difference of medians", duration(r.a.median - r.b.median), "", ""]);
    area.row(["rtk explain answers parse ok", "yes", "", ""], check);
    area.note(`${rounds} rounds, alternated A B A B …, after 2 untimed; no target yet (rtk rewrite will have ≤ 1.15)`);
    area.figure("rounds", rounds);
    area.figure("rtk", r.a);
    area.figure("node", r.b);
    area.figure("ratio", r.ratio);
  });
};

/** The folder the events name: a git repository, where Claude Code runs `git status` by itself and the rewrite is handed back. */
const REPO = mkdtempSync(join(tmpdir(), "rtk-bench-repo-"));
spawnSync("git", ["init", "-q"], { cwd: REPO });
const EVENT = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git status" }, cwd: REPO, permission_mode: "default", session_id: "bench", tool_use_id: "t" });
const TARGET = 1.45;

/** Packs this checkout's files (uncommitted changes too) and installs the tarball into a prefix; returns its bin folder. */
function installFromTarball(dir: string): string {
  const src = join(dir, "src");
  const files = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: root, encoding: "utf8" }).stdout.split("\0").filter(Boolean);
  for (const f of files) {
    if (!existsSync(join(root, f)) || !statSync(join(root, f)).isFile()) continue;
    mkdirSync(dirname(join(src, f)), { recursive: true });
    copyFileSync(join(root, f), join(src, f));
  }
  symlinkSync(join(root, "node_modules"), join(src, "node_modules"));
  const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k))) as Record<string, string>;
  const npm = (args: string[], cwd: string) => {
    const r = spawnSync("npm", args, { cwd, env: { ...env, npm_config_update_notifier: "false" }, encoding: "utf8" });
    if (r.status !== 0) throw new Error(`npm ${args.join(" ")}: ${r.stderr.slice(-500)}`);
    return r.stdout.trim().split("\n").pop()!;
  };
  const tgz = join(dir, npm(["pack", "--pack-destination", dir, "--silent"], src));
  // No install scripts: the first run below is the one that makes the snapshot.
  npm(["install", "-g", "--prefix", join(dir, "prefix"), "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund", tgz], dir);
  return join(dir, "prefix", "bin");
}

/** Both snapshot files of a cache entry in place for the binary's current mtime. */
function snapshotReady(cache: string, dist: string, node: string): boolean {
  const id = readFileSync(join(dist, "build-id"), "utf8").trim();
  const entry = `${cache}/rtk/snapshots/${id}${node}`;
  const mtime = statSync(node).mtimeMs;
  return ["rtk", "rtk-run"].every((k) => {
    try {
      return statSync(join(entry, `${k}.blob.ok`)).mtimeMs === mtime && !existsSync(join(entry, "lock"));
    } catch {
      return false;
    }
  });
}

function sleep(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** A startup snapshot of nothing, built by `node`; null when it cannot be built. */
function emptySnapshot(node: string, dir: string): string | null {
  const script = join(dir, "empty-snapshot.js");
  const blob = join(dir, `empty-${Math.random().toString(36).slice(2)}.blob`);
  writeFileSync(script, "require('v8').startupSnapshot.setDeserializeMainFunction(() => {});\n");
  const r = spawnSync(node, ["--snapshot-blob", blob, "--build-snapshot", script], { stdio: "ignore" });
  return r.status === 0 ? blob : null;
}

function parsesOk(stdout: string): boolean {
  try {
    return (JSON.parse(stdout) as { parse?: { ok?: boolean } }).parse?.ok === true;
  } catch {
    return false;
  }
}

const installed: Bench = async (ctx) => {
  const nodes = [process.execPath, ...(process.env["RTK_BENCH_NODES"] ?? "").split(":").filter((n) => n && existsSync(n))];
  const dir = mkdtempSync(join(tmpdir(), "rtk-bench-install-"));
  try {
    await ctx.report.section(
      `hook path after install: rtk from its tarball (snapshot cache warm) and the checkout, vs node -e 0`,
      ["node", "command", "median", "node -e 0", "÷ node", "÷ empty snapshot", "CPU ÷ empty snapshot"],
      (area) => {
        const bin = installFromTarball(dir);
        const dist = join(dirname(bin), "lib", "node_modules", "rtk", "dist");
        const rounds = scale(ctx, { full: 30, ci: 15 });
        for (const node of nodes) {
          const version = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
          const home = join(dir, `home-${version}`);
          const cache = join(home, ".cache");
          mkdirSync(home, { recursive: true });
          spawnSync("git", ["init", "-q"], { cwd: home });
          // The same minimal environment on both sides (an inherited NODE_EXTRA_CA_CERTS alone adds a CA bundle load to every start).
          const env = {
            PATH: `${bin}:${dirname(node)}:/usr/local/bin:/usr/bin:/bin`,
            HOME: home,
            XDG_CACHE_HOME: cache,
            XDG_CONFIG_HOME: join(home, ".config"),
            XDG_DATA_HOME: join(home, ".local", "share"),
          };
          const bare: Command = { label: "node -e 0", argv: [node, "-e", "0"], env, cwd: home };
          const rewrite: Command = { label: "rtk rewrite", argv: [join(bin, "rtk"), "rewrite", "git status"], env, cwd: home, ok: [0] };
          const hook: Command = { label: "rtk hook claude", argv: [join(bin, "rtk"), "hook", "claude"], env, cwd: home, input: EVENT };

          // First use: the plain bundle answers, and the snapshot is made in the background.
          const first = runTimed(rewrite);
          const t0 = performance.now();
          while (!snapshotReady(cache, dist, node)) {
            if (performance.now() - t0 > 240_000) throw new Error(`no snapshot in ${cache} after 4 minutes (${version})`);
            sleep(50);
          }
          const buildMs = performance.now() - t0;
          area.row([version, "first run (plain bundle; starts the snapshot build)", duration(first), "", "", "", ""]);
          area.row([version, "snapshot build, in the background", duration(buildMs * 1000), "", "", "", ""]);
          area.figure(`${version} first run`, first);
          area.figure(`${version} snapshot build`, buildMs * 1000);

          const answered = spawnSync(hook.argv[0]!, hook.argv.slice(1), { env, input: EVENT, encoding: "utf8" }).stdout.includes("rtk git status");
          area.row(
            [version, "installed hook answers with a rewrite", answered ? "yes" : "no", "", "", "", ""],
            area.check(`${version} installed hook answers`, answered ? 1 : 0, "", { equals: 1 }, "correctness"),
          );
          const floor = emptySnapshot(node, home);
          if (!floor) throw new Error(`no empty snapshot could be built with ${version}`);
          const empty: Command = { label: "empty snapshot", argv: [node, "--snapshot-blob", floor], env, cwd: home };
          const subjects: [string, Command][] = [
            ['installed: rtk rewrite "git status"', rewrite],
            ["installed: rtk hook claude < event", hook],
          ];
          // The checkout starts from its own dist/ snapshot, made by the Node binary that built it.
          if (node === process.execPath) {
            const checkoutEnv = { ...env, PATH: `${join(root, "bin")}:${dirname(node)}:/usr/local/bin:/usr/bin:/bin` };
            subjects.push(['checkout: rtk rewrite "git status"', { label: "checkout rewrite", argv: [join(root, "bin", "rtk"), "rewrite", "git status"], env: checkoutEnv, cwd: home }]);
            subjects.push(["checkout: rtk hook claude < event", { label: "checkout hook", argv: [join(root, "bin", "rtk"), "hook", "claude"], env: checkoutEnv, cwd: home, input: EVENT }]);
          }
          // One alternation of them all, so each ratio compares neighbours.
          const [rn, re, ...rs] = roundRobin([bare, empty, ...subjects.map(([, c]) => c)], { warmupRounds: 3, rounds });
          const n = rn!.wall;
          const e = re!.wall;
          area.row([version, "floor: an empty user-land snapshot", duration(e.median), duration(n.median), sig(e.median / n.median), "1", ""]);
          area.figure(`${version} empty snapshot`, { snapshot: re, node: rn, ratio: e.median / n.median });
          subjects.forEach(([label], i) => {
            const r = rs[i]!.wall;
            const overNode = r.median / n.median;
            const overFloor = r.median / e.median;
            const cpuOverFloor = rs[i]!.cpuMean !== null && re!.cpuMean ? rs[i]!.cpuMean! / re!.cpuMean : null;
            area.row(
              [version, label, duration(r.median), duration(n.median), sig(overNode), sig(overFloor), cpuOverFloor === null ? "" : sig(cpuOverFloor)],
              area.check(`${version} ${label}`, round3(overNode), "× node", { max: TARGET }),
            );
            area.row(["", "  gate: wall ÷ node -e 0", "", "", sig(overNode), "", ""], area.gate(`${version} ${label}: wall ÷ node -e 0`, round3(overNode), "×", INSTALLED.overNode));
            if (cpuOverFloor !== null)
              area.row(
                ["", "  gate: CPU ÷ empty snapshot's CPU", "", "", "", "", sig(cpuOverFloor)],
                area.gate(`${version} ${label}: CPU ÷ empty snapshot's CPU`, round3(cpuOverFloor), "×", INSTALLED.cpuOverFloor),
              );
            area.figure(`${version} ${label}`, { rtk: rs[i], node: rn, floor: re, ratio: overNode, overFloor, cpuOverFloor });
          });
        }
        area.note(
          `${rounds} rounds of node -e 0, the empty snapshot and each rtk command in turn, after 3 untimed, in a minimal environment (PATH, HOME, XDG folders) on every side; target ≤ ${TARGET} × node -e 0 (reported); gates from bench/gates.ts`,
        );
        if (nodes.length === 1) area.note("other Node binaries: RTK_BENCH_NODES=/path/to/node[:…] (CI sets Node 24's)");
      },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
};

const both: Bench = async (ctx) => {
  await bench(ctx);
  await installed(ctx);
};

export default both;
