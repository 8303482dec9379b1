// The startup snapshot of an installed rtk (one whose dist/ holds no snapshot of
// its own, as the package ships): made on first use, in the background, into the
// user's cache, for the Node binary that runs rtk; used once it is there; ignored
// (the plain bundle answers) when it is damaged, foreign or made for a Node binary
// since replaced, and then made again. A copy of the built package runs in a
// temporary HOME; its plain bundle says on stderr when it is the one that runs.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { buildWanted } from "../../src/cli/snapshot-cache.js";
import { ensureBuilt } from "../support/build.js";
import { repoRoot } from "../support/corpus.js";

const PLAIN = "[rtk: plain bundle]";
const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

interface Pkg {
  root: string;
  /** The installed package folder (…/node_modules/rtk). */
  dir: string;
  bin: string;
  cache: string;
  /** The Node binary the launcher finds first on PATH. */
  node: string;
  env: Record<string, string>;
}

/** A copy of the built package as npm installs it (no snapshot in dist/), with a marked plain bundle. */
function install(node = process.execPath, tweak?: (dist: string) => void): Pkg {
  const root = mkdtempSync(join(tmpdir(), "rtk-snapcache-"));
  made.push(root);
  const dir = join(root, "lib", "node_modules", "rtk");
  mkdirSync(join(dir, "bin"), { recursive: true });
  mkdirSync(join(dir, "dist"));
  copyFileSync(join(repoRoot, "bin", "rtk"), join(dir, "bin", "rtk"));
  chmodSync(join(dir, "bin", "rtk"), 0o755);
  copyFileSync(join(repoRoot, "package.json"), join(dir, "package.json"));
  for (const f of readdirSync(join(repoRoot, "dist"))) {
    if (f.endsWith(".cjs") || f === "build-id") copyFileSync(join(repoRoot, "dist", f), join(dir, "dist", f));
  }
  renameSync(join(dir, "dist", "rtk.cjs"), join(dir, "dist", "rtk-plain.cjs"));
  writeFileSync(join(dir, "dist", "rtk.cjs"), `process.stderr.write(${JSON.stringify(PLAIN + "\n")});\nrequire("./rtk-plain.cjs");\n`);
  tweak?.(join(dir, "dist"));
  const home = join(root, "home");
  mkdirSync(home);
  const cache = join(root, "cache");
  const env = {
    PATH: `${join(dir, "bin")}:${dirname(node)}:/usr/local/bin:/usr/bin:/bin`,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: cache,
    RTK_ROUTES: "all",
  };
  return { root, dir, bin: join(dir, "bin", "rtk"), cache, node, env };
}

function entryOf(p: Pkg): string {
  const id = readFileSync(join(p.dir, "dist", "build-id"), "utf8").trim();
  return `${p.cache}/rtk/snapshots/${id}${p.node}`;
}

function rtk(p: Pkg, args: string[], input = "") {
  return spawnSync(p.bin, args, { env: p.env, cwd: p.root, input, encoding: "utf8", timeout: 120000 });
}

function sleep(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/** Waits (at most 4 minutes: a build on a loaded machine) until both snapshots are in place for the binary's current mtime. */
function waitForSnapshots(p: Pkg): void {
  const entry = entryOf(p);
  const ready = () =>
    ["rtk", "rtk-run"].every((k) => {
      try {
        const mtime = statSync(p.node).mtimeMs;
        return statSync(join(entry, `${k}.blob.ok`)).mtimeMs === mtime && statSync(join(entry, `${k}.blob`)).mtimeMs === mtime;
      } catch {
        return false;
      }
    }) && !existsSync(join(entry, "lock"));
  for (let waited = 0; !ready(); waited += 200) {
    assert.ok(waited < 240_000, `no snapshot in ${entry} after 4 minutes: ${existsSync(join(entry, "failed")) ? readFileSync(join(entry, "failed"), "utf8") : "(no failure recorded)"}`);
    sleep(200);
  }
}

function assertAnswers(p: Pkg, how: "plain" | "snapshot", what: string) {
  const r = rtk(p, ["rewrite", "--host", "none", "git status"]);
  assert.equal(r.stdout, "rtk git status", `${what}: ${r.stderr}`);
  assert.equal(r.status, 3, `${what}: ${r.stderr}`);
  assert.equal(r.stderr.includes(PLAIN), how === "plain", `${what}: expected the ${how} start; stderr: ${JSON.stringify(r.stderr)}`);
}

before(() => {
  ensureBuilt();
});

describe("the snapshot cache of an installed rtk", () => {
  let p: Pkg;
  before(() => {
    p = install();
  });

  test("first use: the plain bundle answers at once (the hook's stdout is only its answer) and the snapshot is made in the background", () => {
    // `ls` in its own folder is a command Claude Code runs by itself: the rewrite is handed back.
    const event = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, cwd: p.root });
    const h = rtk(p, ["hook", "claude"], event);
    assert.equal(h.status, 0, h.stderr);
    assert.equal(JSON.parse(h.stdout).hookSpecificOutput.updatedInput.command, "rtk ls");
    assert.equal(h.stderr, `${PLAIN}\n`, "nothing else on stderr either");
    waitForSnapshots(p);
  });

  test("the entry is owner-only, each blob has the binary's mtime, and its sidecar records its size and SHA-256", () => {
    const entry = entryOf(p);
    for (let d = entry; d.startsWith(join(p.cache, "rtk")); d = dirname(d)) assert.equal(statSync(d).mode & 0o777, 0o700, d);
    for (const k of ["rtk", "rtk-run"]) {
      const blob = join(entry, `${k}.blob`);
      const bytes = readFileSync(blob);
      const side = JSON.parse(readFileSync(`${blob}.ok`, "utf8")) as { size: number; sha256: string; node: string; nodeVersion: string };
      assert.equal(side.size, bytes.length);
      assert.equal(side.sha256, createHash("sha256").update(bytes).digest("hex"));
      assert.equal(side.node, p.node);
      assert.equal(side.nodeVersion, process.version);
      assert.equal(statSync(blob).mode & 0o777, 0o600);
      assert.equal(statSync(`${blob}.ok`).mode & 0o777, 0o600);
    }
    // The code caches of the full CLI and the reports, beside the blob meta-commands start from (src/cli/code-cache.ts).
    for (const c of ["rtk-main.cache", "rtk-report.cache"]) assert.equal(statSync(join(entry, c)).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(entry).sort(), ["rtk-main.cache", "rtk-report.cache", "rtk-run.blob", "rtk-run.blob.ok", "rtk.blob", "rtk.blob.ok"], "no temporary file, lock or failure left");
  });

  test("then rtk starts from it: rewrite, hook and a run answer without the plain bundle", () => {
    assertAnswers(p, "snapshot", "rewrite");
    const v = rtk(p, ["--version"]);
    assert.match(v.stdout, /^rtk \d/);
    assert.doesNotMatch(v.stderr, /plain bundle/);
  });

  test("a blob truncated in place is not used (it would crash Node): the plain bundle answers, and the snapshot is made again", () => {
    const blob = join(entryOf(p), "rtk.blob");
    writeFileSync(blob, readFileSync(blob).subarray(0, 100_000));
    assertAnswers(p, "plain", "truncated");
    waitForSnapshots(p);
    assertAnswers(p, "snapshot", "rebuilt");
  });

  test("a foreign file in place of the blob, or a blob without its sidecar, is not used", () => {
    const blob = join(entryOf(p), "rtk.blob");
    const good = readFileSync(blob);
    const { atime, mtime } = statSync(blob);
    writeFileSync(blob, Buffer.alloc(good.length, 7));
    assertAnswers(p, "plain", "foreign");
    waitForSnapshots(p);
    rmSync(`${blob}.ok`);
    utimesSync(blob, atime, mtime);
    assertAnswers(p, "plain", "no sidecar");
    waitForSnapshots(p);
    assertAnswers(p, "snapshot", "rebuilt");
  });

  test("a cache that cannot be written: the command still answers, with nothing more on stdout", () => {
    const q = { ...p, env: { ...p.env, XDG_CACHE_HOME: "/proc/no-cache-here" } };
    const r = rtk(q, ["rewrite", "--host", "none", "git status"]);
    assert.equal(r.stdout, "rtk git status");
    assert.equal(r.status, 3);
  });
});

describe("the Node binary changes", () => {
  test("an entry made for a binary since replaced at the same path is not used; one for the new binary is made", () => {
    const root = mkdtempSync(join(tmpdir(), "rtk-snapnode-"));
    made.push(root);
    const node = join(root, "node-bin", "node");
    mkdirSync(dirname(node));
    copyFileSync(process.execPath, node);
    chmodSync(node, 0o755);
    const p = install(node);
    rtk(p, ["rewrite", "--host", "none", "git status"]);
    waitForSnapshots(p);
    assertAnswers(p, "snapshot", "made for this binary");
    // An upgrade in place: a new binary at the same path.
    const later = new Date(Date.now() + 60_000);
    utimesSync(node, later, later);
    assertAnswers(p, "plain", "binary replaced");
    waitForSnapshots(p);
    assertAnswers(p, "snapshot", "made for the new binary");
  });
});

describe("two first runs at once", () => {
  test("both answer, one snapshot is made, nothing is left half-written", async () => {
    const p = install();
    const once = () =>
      new Promise<{ out: string; status: number | null }>((resolve) => {
        const c = spawn(p.bin, ["rewrite", "--host", "none", "git status"], { env: p.env, cwd: p.root });
        let out = "";
        c.stdout.on("data", (d: Buffer) => (out += d.toString()));
        c.on("close", (status) => resolve({ out, status }));
      });
    const runs = await Promise.all([once(), once(), once()]);
    for (const r of runs) assert.deepEqual(r, { out: "rtk git status", status: 3 });
    waitForSnapshots(p);
    const entry = entryOf(p);
    assert.deepEqual(readdirSync(entry).sort(), ["rtk-main.cache", "rtk-report.cache", "rtk-run.blob", "rtk-run.blob.ok", "rtk.blob", "rtk.blob.ok"]);
    for (const k of ["rtk", "rtk-run"]) {
      const side = JSON.parse(readFileSync(join(entry, `${k}.blob.ok`), "utf8")) as { size: number };
      assert.equal(statSync(join(entry, `${k}.blob`)).size, side.size);
    }
    assertAnswers(p, "snapshot", "after the race");
  });
});

describe("a build that fails", () => {
  test("is recorded, not retried on every start, and never breaks the command", () => {
    const p = install(process.execPath, (dist) => writeFileSync(join(dist, "rtk-hot.cjs"), "throw new Error('cannot be snapshotted');\n"));
    assertAnswers(p, "plain", "first");
    const failed = join(entryOf(p), "failed");
    for (let waited = 0; !(existsSync(failed) && !existsSync(join(entryOf(p), "lock"))); waited += 200) {
      assert.ok(waited < 240_000, "the failure is recorded");
      sleep(200);
    }
    assert.match(readFileSync(failed, "utf8"), /^1\n/);
    assertAnswers(p, "plain", "second");
    assertAnswers(p, "plain", "third");
    sleep(2000);
    assert.match(readFileSync(failed, "utf8"), /^1\n/, "no second attempt right after the first failed");
    assert.deepEqual(readdirSync(entryOf(p)).sort(), ["failed"], "no blob, no temporary file, no lock");
  });

  test("the back-off: none while a build holds a fresh lock; after n failures, 10 min × 2^(n-1), at most a day", () => {
    const dir = mkdtempSync(join(tmpdir(), "rtk-backoff-"));
    made.push(dir);
    const now = Date.now();
    const at = (file: string, content: string, agoMs: number) => {
      writeFileSync(join(dir, file), content);
      const t = new Date(now - agoMs);
      utimesSync(join(dir, file), t, t);
    };
    assert.equal(buildWanted(dir, now), true, "nothing there");
    at("lock", "", 60_000);
    assert.equal(buildWanted(dir, now), false, "a build is running");
    at("lock", "", 11 * 60_000);
    assert.equal(buildWanted(dir, now), true, "a lock nobody released");
    rmSync(join(dir, "lock"));
    at("failed", "1\nwhy\n", 9 * 60_000);
    assert.equal(buildWanted(dir, now), false);
    at("failed", "1\nwhy\n", 11 * 60_000);
    assert.equal(buildWanted(dir, now), true);
    at("failed", "3\nwhy\n", 39 * 60_000);
    assert.equal(buildWanted(dir, now), false);
    at("failed", "3\nwhy\n", 41 * 60_000);
    assert.equal(buildWanted(dir, now), true);
    at("failed", "20\nwhy\n", 23 * 3600_000);
    assert.equal(buildWanted(dir, now), false);
    at("failed", "20\nwhy\n", 25 * 3600_000);
    assert.equal(buildWanted(dir, now), true);
  });
});
