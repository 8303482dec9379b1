// The recall store (spec/runtime.md, "Recall store"): owner-only (folder 0700,
// files 0600 created exclusively, no symlink followed, a symlinked folder
// refused), rotation to the newest 200 entries within 7 days, ids of 7 hex
// characters, and `rtk recall` on entries written by real runs of the built CLI.
// Every run gets a temporary HOME, XDG_DATA_HOME, XDG_CONFIG_HOME and TMPDIR.
import assert from "node:assert/strict";
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import crypto from "node:crypto";
import fs, { chmodSync, chownSync, closeSync, existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, renameSync, statSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import {
  dedupRecall,
  fillRecall,
  listRecall,
  MAX_RECALL_BYTES,
  newRecallId,
  openRecallDir,
  pruneRecall,
  RecallUnsafeError,
  releaseRecall,
  reserveEntry,
  reserveRecall,
  RunRecall,
  SWEEP_EVERY_MS,
  sweepRecall,
  type RecallMeta,
} from "../../src/runtime/recall.js";
import { ensureBuilt } from "../support/build.js";
import { launchSync, RTK } from "../support/launch.js";
import { removeSandboxes, sandbox, type Sandbox } from "../support/sandbox.js";

const ID = /^[0-9a-f]{7}$/;
const DAY = 24 * 3600 * 1000;

before(() => {
  ensureBuilt();
});

after(removeSandboxes);

type Box = Sandbox;

function box(): Box {
  return sandbox("rtk-recall-");
}

function rtk(b: Box, args: string[], env: Record<string, string> = {}): SpawnSyncReturns<string> {
  return launchSync(args, { cwd: b.cwd, env: { ...b.env, ...env }, timeout: 30000 });
}

let fakes = 0;
/** A stand-in `git` (a sh script) called by its path: `rtk <path> status` takes the git status route. */
function fakeGit(b: Box, body: string): string {
  const dir = join(b.root, `fake-${++fakes}`);
  mkdirSync(dir);
  const path = join(dir, "git");
  writeFileSync(path, `#!/bin/sh\n${body}\n`, { mode: 0o755 });
  return path;
}

const mode = (p: string) => lstatSync(p).mode & 0o777;
const ids = (dir: string) => [...new Set(readdirSync(dir).map((f) => f.slice(0, 7)))].sort();

function meta(id: string, time = Date.now()): Omit<RecallMeta, "bytes" | "truncated"> {
  return { id, argv: ["git", "status"], exitCode: 1, route: "git.status", time };
}

function put(dir: string, id: string, time: number, text = `entry ${id}\n`): void {
  const { id: _id, ...rest } = meta(id, time);
  fillRecall(reserveEntry(dir, id), rest, (write) => {
    write(Buffer.from(text));
  });
}

/** Opens and checks the store as a run does (throws RecallUnsafeError when it refuses it). */
function ensureRecallDir(dir: string): void {
  openRecallDir(dir).close();
}

/** A fresh folder made by openRecallDir, for the in-process tests. */
function store(): string {
  const b = box();
  ensureRecallDir(b.recall);
  return b.recall;
}

/** Makes crypto.randomBytes return the given hex strings in turn (also for recall.ts's named import). */
function withRandom<T>(hex: string[], f: () => T): T {
  const real = crypto.randomBytes;
  let i = 0;
  (crypto as { randomBytes: unknown }).randomBytes = (n: number) => {
    const h = hex[Math.min(i++, hex.length - 1)]!;
    return Buffer.from(h.padEnd(n * 2, "0").slice(0, n * 2), "hex");
  };
  syncBuiltinESMExports();
  try {
    return f();
  } finally {
    (crypto as { randomBytes: unknown }).randomBytes = real;
    syncBuiltinESMExports();
  }
}

describe("owner-only store, written by a real failing routed run", () => {
  const b = box();

  test("rtk git status outside a repository (exit 128) keeps the raw output: folder 0700, files 0600, a 7-hex id", () => {
    const r = rtk(b, ["git", "status"]);
    assert.equal(r.status, 128);
    assert.equal(mode(b.recall), 0o700);
    const files = readdirSync(b.recall).sort();
    assert.equal(files.length, 2, files.join(" "));
    const [id] = ids(b.recall);
    assert.match(id!, ID);
    assert.deepEqual(files, [`${id}.json`, `${id}.txt`]);
    for (const f of files) assert.equal(mode(join(b.recall, f)), 0o600, f);
    assert.equal(readFileSync(join(b.recall, `${id}.txt`), "utf8"), r.stderr);
    const m = JSON.parse(readFileSync(join(b.recall, `${id}.json`), "utf8")) as RecallMeta;
    const sha256 = crypto.createHash("sha256").update(r.stderr).digest("hex");
    assert.deepEqual({ ...m, time: 0 }, { id, argv: ["git", "status"], exitCode: 128, route: "git.status", time: 0, bytes: Buffer.byteLength(r.stderr), truncated: false, cwd: b.cwd, sha256 });
  });

  test("a recall folder that others may read is made 0700", () => {
    const c = box();
    mkdirSync(c.recall, { recursive: true, mode: 0o755 });
    chmodSync(c.recall, 0o755);
    assert.equal(rtk(c, ["git", "status"]).status, 128);
    assert.equal(mode(c.recall), 0o700);
    assert.equal(ids(c.recall).length, 1);
  });

  test("a successful run that omits nothing keeps no entry", () => {
    const c = box();
    const git = fakeGit(c, "echo 'On branch main'; echo 'nothing to commit, working tree clean'");
    const r = rtk(c, [git, "status"]);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(!existsSync(c.recall) || readdirSync(c.recall).length === 0);
  });
});

describe("the config's [recall] section, applied by real runs", () => {
  function configured(b: Box, toml: string): void {
    mkdirSync(join(b.config, "rtk"), { recursive: true });
    writeFileSync(join(b.config, "rtk", "config.toml"), toml);
  }

  test("enabled = false: a failing run keeps nothing, and its output is the same", () => {
    const on = box();
    const off = box();
    configured(off, "[recall]\nenabled = false\n");
    const a = rtk(on, ["git", "status"]);
    const r = rtk(off, ["git", "status"]);
    assert.equal(r.status, 128);
    assert.equal(r.stderr, a.stderr);
    assert.equal(ids(on.recall).length, 1);
    assert.ok(!existsSync(off.recall) || readdirSync(off.recall).length === 0);
  });

  test("enabled = false: what a compact form leaves out is marked, with no handle to a stored copy", () => {
    const b = box();
    configured(b, "[recall]\nenabled = false\n\n[limits]\nlist_tokens = 60\n");
    const git = fakeGit(b, "echo 'On branch main'; echo 'Untracked files:'; i=0; while [ $i -lt 60 ]; do printf '\\tf%02d.txt\\n' $i; i=$((i+1)); done");
    const r = rtk(b, [git, "status"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /… \+\d+ more untracked paths \[rtk recall unavailable\]/);
    assert.ok(!existsSync(b.recall) || readdirSync(b.recall).length === 0);
  });

  test("max_entries: the store keeps the newest entries only", () => {
    const b = box();
    configured(b, "[recall]\nmax_entries = 2\n");
    // Four different runs (the same output of the same command would be kept once).
    for (let i = 0; i < 4; i++) assert.equal(rtk(b, ["git", "-c", `x.y=${i}`, "status"]).status, 128);
    assert.equal(ids(b.recall).length, 2);
  });
});

describe("no symlink is followed", () => {
  test("a symlink pre-placed at an entry's data path: the write fails, the target is untouched, no metadata written", () => {
    const dir = store();
    const outside = join(dir, "..", "..", "..", "outside.txt");
    writeFileSync(outside, "secret\n");
    symlinkSync(outside, join(dir, "abc1234.txt"));
    assert.throws(() => put(dir, "abc1234", Date.now(), "overwritten\n"), /EEXIST/);
    assert.equal(readFileSync(outside, "utf8"), "secret\n");
    assert.ok(!existsSync(join(dir, "abc1234.json")));
  });

  test("a dangling symlink at an entry's data path: the write fails and creates nothing at the target", () => {
    const dir = store();
    const target = join(dir, "..", "..", "..", "created-through-symlink");
    symlinkSync(target, join(dir, "abc1235.txt"));
    assert.throws(() => put(dir, "abc1235", Date.now()), /EEXIST/);
    assert.ok(!existsSync(target));
  });

  test("a symlink pre-placed at an entry's metadata path: the write fails, the target is untouched", () => {
    const dir = store();
    const outside = join(dir, "..", "..", "..", "outside.json");
    writeFileSync(outside, "{}");
    symlinkSync(outside, join(dir, "abc1236.json"));
    assert.throws(() => put(dir, "abc1236", Date.now()), /EEXIST/);
    assert.equal(readFileSync(outside, "utf8"), "{}");
  });

  test("a fresh id never lands on a pre-placed path: the id of the symlink is skipped, another one is picked", () => {
    const dir = store();
    const outside = join(dir, "..", "..", "..", "outside.txt");
    writeFileSync(outside, "secret\n");
    symlinkSync(outside, join(dir, "abc1234.txt"));
    const id = withRandom(["abc12340", "abc12341", "0123456f"], () => newRecallId(dir));
    assert.equal(id, "0123456");
    put(dir, id, Date.now());
    assert.equal(readFileSync(outside, "utf8"), "secret\n");
    assert.equal(readFileSync(join(dir, "0123456.txt"), "utf8"), "entry 0123456\n");
  });

  test("rtk recall <id> does not read through a symlinked entry", () => {
    const b = box();
    ensureRecallDir(b.recall);
    const outside = join(b.root, "secret.txt");
    writeFileSync(outside, "TOP SECRET\n");
    symlinkSync(outside, join(b.recall, "abc1237.txt"));
    writeFileSync(join(b.recall, "abc1237.json"), JSON.stringify({ ...meta("abc1237"), bytes: 11, truncated: false }));
    const r = rtk(b, ["recall", "abc1237"]);
    assert.equal(r.status, 1);
    assert.doesNotMatch(r.stdout + r.stderr, /TOP SECRET/);
  });

  test("a recall folder that is a symlink is refused (in-process)", () => {
    const b = box();
    const outside = join(b.root, "elsewhere");
    mkdirSync(outside, { mode: 0o700 });
    mkdirSync(join(b.recall, ".."), { recursive: true });
    symlinkSync(outside, b.recall);
    assert.throws(() => ensureRecallDir(b.recall), RecallUnsafeError);
  });

  test("a recall folder that is a symlink: a failing run keeps its output and exit code and writes nothing through it", () => {
    const b = box();
    const outside = join(b.root, "elsewhere");
    mkdirSync(outside, { mode: 0o700 });
    mkdirSync(join(b.recall, ".."), { recursive: true });
    symlinkSync(outside, b.recall);
    const r = rtk(b, ["git", "status"]);
    assert.equal(r.status, 128);
    assert.match(r.stderr, /^fatal: not a git repository/);
    assert.deepEqual(readdirSync(outside), []);
    assert.ok(lstatSync(b.recall).isSymbolicLink());
  });

  test("a recall folder that is a dangling symlink: nothing is created at its target", () => {
    const b = box();
    const target = join(b.root, "not-yet");
    mkdirSync(join(b.recall, ".."), { recursive: true });
    symlinkSync(target, b.recall);
    assert.equal(rtk(b, ["git", "status"]).status, 128);
    assert.ok(!existsSync(target));
  });

  test("a recall folder owned by another user is refused", { skip: process.getuid?.() !== 0 && "needs root to chown" }, () => {
    const b = box();
    mkdirSync(b.recall, { recursive: true, mode: 0o700 });
    chownSync(b.recall, 65534, 65534);
    assert.throws(() => ensureRecallDir(b.recall), RecallUnsafeError);
  });
});

describe("a store that is not the user's alone is refused: no entry, the marker says unavailable, the output and exit code unchanged", () => {
  /** A routed run whose compact form hides untracked paths past the list budget behind a marker. */
  const untracked = "echo 'On branch main'; echo 'Untracked files:'; i=0; while [ $i -lt 2000 ]; do printf '\\tf%04d.txt\\n' $i; i=$((i+1)); done";
  const reference = (() => {
    const b = box();
    const r = rtk(b, [fakeGit(b, untracked), "status"]);
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /\[rtk recall [0-9a-f]{7}\]/);
    return r.stdout.replace(/\[rtk recall [0-9a-f]{7}\]/g, "[rtk recall unavailable]");
  })();
  const data = (b: Box) => join(b.recall, "..");

  function refused(b: Box, outside: string | null): void {
    const r = rtk(b, [fakeGit(b, untracked), "status"]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, reference);
    assert.equal(r.stderr, "");
    if (outside !== null) assert.deepEqual(readdirSync(outside), [], "nothing lands where a symlink points");
    const failing = rtk(b, ["git", "status"]);
    assert.equal(failing.status, 128);
    assert.match(failing.stderr, /^fatal: not a git repository/);
    if (outside !== null) assert.deepEqual(readdirSync(outside), []);
  }

  test("$XDG_DATA_HOME/rtk is a symlink", () => {
    const b = box();
    const outside = join(b.root, "elsewhere");
    mkdirSync(outside, { mode: 0o700 });
    symlinkSync(outside, data(b));
    refused(b, outside);
  });

  test("$XDG_DATA_HOME/rtk/recall is a symlink", () => {
    const b = box();
    const outside = join(b.root, "elsewhere");
    mkdirSync(outside, { mode: 0o700 });
    mkdirSync(data(b), { mode: 0o700 });
    symlinkSync(outside, b.recall);
    refused(b, outside);
  });

  for (const [which, perm] of [
    ["rtk", 0o777],
    ["rtk", 0o770],
    ["recall", 0o777],
    ["recall", 0o720],
  ] as const) {
    test(`the ${which} folder is writable by others (${perm.toString(8)})`, () => {
      const b = box();
      mkdirSync(b.recall, { recursive: true, mode: 0o700 });
      const dir = which === "rtk" ? data(b) : b.recall;
      chmodSync(dir, perm);
      refused(b, null);
      assert.deepEqual(readdirSync(b.recall), []);
      assert.equal(mode(dir), perm, "left as it is");
    });
  }

  for (const which of ["rtk", "recall"] as const) {
    test(`the ${which} folder belongs to another user`, { skip: process.getuid?.() !== 0 && "needs root to chown" }, () => {
      const b = box();
      mkdirSync(b.recall, { recursive: true, mode: 0o700 });
      chownSync(which === "rtk" ? data(b) : b.recall, 65534, 65534);
      refused(b, null);
      assert.deepEqual(readdirSync(b.recall), []);
    });
  }

  test("rtk recall does not read a store behind a symlinked rtk folder, nor one open to others", () => {
    const b = box();
    const outside = join(b.root, "elsewhere");
    mkdirSync(join(outside, "recall"), { recursive: true, mode: 0o700 });
    put(join(outside, "recall"), "abc1238", Date.now(), "PLANTED\n");
    symlinkSync(outside, data(b));
    for (const args of [
      ["recall", "abc1238"],
      ["recall", "--list"],
    ]) {
      const r = rtk(b, args);
      assert.equal(r.status, 1, args.join(" "));
      assert.match(r.stderr, /^rtk recall: .* is not a plain folder; recall is off$/m);
      assert.doesNotMatch(r.stdout, /PLANTED|abc1238/);
    }
    const c = box();
    mkdirSync(c.recall, { recursive: true, mode: 0o700 });
    put(c.recall, "abc1239", Date.now(), "FROM SOMEONE\n");
    chmodSync(c.recall, 0o777);
    const r = rtk(c, ["recall", "abc1239"]);
    assert.equal(r.status, 1);
    assert.match(r.stderr, /is writable by others; recall is off/);
    assert.equal(r.stdout, "");
  });
});

/** Makes fs.readdirSync list nothing (also for recall.ts's named import): a path made after the listing. */
function withUnlisted<T>(f: () => T): T {
  const real = fs.readdirSync;
  (fs as { readdirSync: unknown }).readdirSync = () => [];
  syncBuiltinESMExports();
  try {
    return f();
  } finally {
    (fs as { readdirSync: unknown }).readdirSync = real;
    syncBuiltinESMExports();
  }
}

describe("an entry is reserved when its id is first asked for, so a printed handle always names one", () => {
  test("a symlink placed at the chosen id after the listing: nothing written through it, a fresh id reserved instead", () => {
    const b = box();
    const s = openRecallDir(b.recall);
    try {
      const outside = join(b.root, "outside.txt");
      writeFileSync(outside, "secret\n");
      symlinkSync(outside, join(b.recall, "abc1234.txt"));
      const slot = withRandom(["abc12340", "0123456f"], () => withUnlisted(() => reserveRecall(s)));
      assert.ok(slot);
      assert.equal(slot.id, "0123456");
      fillRecall(slot, { argv: ["x"], exitCode: 0, route: null, time: Date.now() }, (write) => void write(Buffer.from("kept\n")));
      assert.equal(readFileSync(outside, "utf8"), "secret\n");
      assert.equal(readFileSync(join(b.recall, "0123456.txt"), "utf8"), "kept\n");
      assert.ok(!existsSync(join(b.recall, "abc1234.json")), "the lost id leaves nothing behind");
    } finally {
      s.close();
    }
  });

  test("every id tried is taken: no entry, and the run's handle is `unavailable`", () => {
    const b = box();
    openRecallDir(b.recall).close();
    const outside = join(b.root, "outside.txt");
    writeFileSync(outside, "secret\n");
    symlinkSync(outside, join(b.recall, "abc1234.json"));
    const entry = new RunRecall(b.env, undefined, true);
    try {
      assert.equal(
        withRandom(["abc12340"], () => withUnlisted(() => entry.id())),
        "unavailable",
      );
      assert.equal(entry.reserved, null);
    } finally {
      entry.close();
    }
    assert.deepEqual(readdirSync(b.recall), ["abc1234.json"]);
    assert.equal(readFileSync(outside, "utf8"), "secret\n");
  });

  test("a reserved entry exists, empty and owner-only, before the run fills it; one never filled is removed", () => {
    const b = box();
    const entry = new RunRecall(b.env, undefined, true);
    const id = entry.id();
    assert.match(id, ID);
    assert.equal(entry.id(), id, "asked again: the same entry");
    for (const ext of [".txt", ".json"]) {
      assert.equal(readFileSync(join(b.recall, id + ext), "utf8"), "");
      assert.equal(mode(join(b.recall, id + ext)), 0o600);
    }
    entry.close();
    assert.deepEqual(readdirSync(b.recall), []);
  });

  test("output that must never be kept (a sensitive filter's) reserves nothing", () => {
    const b = box();
    const entry = new RunRecall(b.env, undefined, false);
    assert.equal(entry.id(), "unavailable");
    entry.save({ argv: ["env"], exitCode: 1, route: "env", time: Date.now() }, (write) => void write(Buffer.from("TOKEN=x\n")));
    entry.close();
    assert.ok(!existsSync(b.recall));
  });

  test("the folder checked is the folder written: swapped for a symlink after the check, entries still go to it", { skip: process.platform !== "linux" && "descriptor paths are Linux's" }, () => {
    const b = box();
    const s = openRecallDir(b.recall);
    try {
      const moved = join(b.root, "moved");
      renameSync(b.recall, moved);
      const outside = join(b.root, "elsewhere");
      mkdirSync(outside, { mode: 0o700 });
      symlinkSync(outside, b.recall);
      const slot = reserveRecall(s);
      assert.ok(slot);
      releaseRecall(s.dir, slot);
      put(s.dir, "abc1240", Date.now());
      assert.deepEqual(readdirSync(outside), []);
      assert.deepEqual(readdirSync(moved).sort(), ["abc1240.json", "abc1240.txt"]);
    } finally {
      s.close();
    }
  });

  test("without descriptor paths, a swap after the check is caught once the entry is made: no handle", () => {
    const b = box();
    const s = openRecallDir(b.recall, { viaDescriptor: false });
    try {
      renameSync(b.recall, join(b.root, "moved"));
      const outside = join(b.root, "elsewhere");
      mkdirSync(outside, { mode: 0o700 });
      symlinkSync(outside, b.recall);
      assert.equal(reserveRecall(s), null);
    } finally {
      s.close();
    }
  });

  test("entries never filled (an interrupted run) are swept once older than the limit", () => {
    const dir = store();
    const now = Date.now();
    for (const id of ["aaaaaa1", "aaaaaa2"]) {
      const slot = reserveEntry(dir, id);
      closeSync(slot.text);
      closeSync(slot.meta);
    }
    const old = (now - 8 * DAY) / 1000;
    for (const ext of [".txt", ".json"]) utimesSync(join(dir, "aaaaaa1" + ext), old, old);
    pruneRecall(dir, 200, 7, now);
    assert.deepEqual(readdirSync(dir).sort(), ["aaaaaa2.json", "aaaaaa2.txt"]);
  });

  test("a real run: the handle names an entry that exists while rtk is still printing the output around it", async () => {
    const b = box();
    mkdirSync(join(b.config, "rtk"), { recursive: true });
    writeFileSync(join(b.config, "rtk", "config.toml"), `[[filters]]\nname = "lines"\nmatch = "^seq"\nhead = 1\ntail = 20000\n`);
    // 20000 lines after the marker, over 700 KB: more than a pipe holds, so rtk is still writing them while this test does not read.
    const child = spawn(RTK, ["seq", "-f", "line %g of a sequence long enough to fill a pipe", "1", "30000"], { cwd: b.cwd, env: b.env, stdio: ["ignore", "pipe", "pipe"] });
    let seen = "";
    const closed = new Promise<string>((resolve) => child.on("close", (code, signal) => resolve(`${code} ${signal}`)));
    const id = await new Promise<string>((resolve, reject) => {
      const onData = (c: Buffer) => {
        seen += c.toString("utf8");
        const m = /\[rtk recall ([0-9a-f]{7})\]/.exec(seen);
        if (!m) return;
        child.stdout.pause();
        child.stdout.off("data", onData);
        resolve(m[1]!);
      };
      child.stdout.on("data", onData);
      child.on("close", () => reject(new Error(`no marker in ${JSON.stringify(seen.slice(0, 200))}`)));
    });
    const existed = existsSync(join(b.recall, `${id}.txt`));
    child.stdout.resume();
    assert.equal(await closed, "0 null");
    assert.ok(existed, "the entry exists when its handle is printed");
    const back = rtk(b, ["recall", id, "--tail", "1"]);
    assert.equal(back.status, 0, back.stderr);
    assert.equal(back.stdout, "line 30000 of a sequence long enough to fill a pipe\n", "filled with the whole output");
  });
});

describe("rotation: the newest 200 entries within 7 days", () => {
  const hex = (i: number) => i.toString(16).padStart(7, "0");

  test("205 entries → the newest 200 are kept", () => {
    const dir = store();
    const now = Date.now();
    for (let i = 0; i < 205; i++) put(dir, hex(i), now - i * 60_000);
    pruneRecall(dir, 200, 7, now);
    const kept = listRecall(dir).map((m) => m.id);
    assert.equal(kept.length, 200);
    assert.deepEqual(
      kept,
      Array.from({ length: 200 }, (_, i) => hex(i)),
    );
    assert.equal(readdirSync(dir).length, 400, "data and metadata of the dropped entries are gone");
  });

  test("entries older than 7 days are dropped, younger ones kept", () => {
    const dir = store();
    const now = Date.now();
    put(dir, "aaaaaa1", now - 8 * DAY);
    put(dir, "aaaaaa2", now - 7 * DAY - 1000);
    put(dir, "aaaaaa3", now - 7 * DAY + 60_000);
    put(dir, "aaaaaa4", now - 1 * DAY);
    pruneRecall(dir, 200, 7, now);
    assert.deepEqual(ids(dir), ["aaaaaa3", "aaaaaa4"]);
  });

  test("a stray data file without metadata is dropped once older than the limit", () => {
    const dir = store();
    const now = Date.now();
    writeFileSync(join(dir, "bbbbbb1.txt"), "old\n");
    writeFileSync(join(dir, "bbbbbb2.txt"), "new\n");
    const old = new Date(now - 8 * DAY);
    utimesSync(join(dir, "bbbbbb1.txt"), old, old);
    pruneRecall(dir, 200, 7, now);
    assert.deepEqual(readdirSync(dir), ["bbbbbb2.txt"]);
  });

  test("a real run prunes: 200 kept entries and an 8-day-old one, then a failing run → the 200 newest remain, its own included", () => {
    const b = box();
    ensureRecallDir(b.recall);
    const now = Date.now();
    for (let i = 0; i < 200; i++) put(b.recall, hex(i), now - 3600_000 - i * 60_000);
    put(b.recall, "fffffff", now - 8 * DAY);
    const r = rtk(b, ["git", "status"]);
    assert.equal(r.status, 128);
    const kept = listRecall(b.recall);
    assert.equal(kept.length, 200);
    assert.equal(kept[0]!.exitCode, 128, "the new entry is the newest");
    assert.deepEqual(
      kept.slice(1).map((m) => m.id),
      Array.from({ length: 199 }, (_, i) => hex(i)),
    );
    assert.ok(!existsSync(join(b.recall, "fffffff.txt")));
  });
});

describe("sweeps: a save reads every entry only when the store is a tenth over its limit or an hour has passed", () => {
  const hex = (i: number) => i.toString(16).padStart(7, "0");
  const swept = (dir: string) => dir + ".swept";

  test("no record of a sweep: the first save sweeps, and records it beside the folder, owner-only", () => {
    const dir = store();
    const now = Date.now();
    put(dir, "aaaaaa1", now - 8 * DAY);
    put(dir, "aaaaaa2", now);
    sweepRecall(dir, 200, 7, now);
    assert.deepEqual(ids(dir), ["aaaaaa2"]);
    assert.equal(readFileSync(swept(dir), "utf8"), String(now));
    assert.equal(mode(swept(dir)), 0o600);
  });

  test("within the hour and the slack, nothing is read or removed; past the hour, the old entry goes", () => {
    const dir = store();
    const now = Date.now();
    sweepRecall(dir, 200, 7, now);
    put(dir, "aaaaaa1", now - 8 * DAY);
    sweepRecall(dir, 200, 7, now + 60_000);
    assert.deepEqual(ids(dir), ["aaaaaa1"], "swept a minute ago: kept for now");
    sweepRecall(dir, 200, 7, now + SWEEP_EVERY_MS);
    assert.deepEqual(ids(dir), []);
  });

  test("past a tenth over the limit, the newest `max` remain at once", () => {
    const dir = store();
    const now = Date.now();
    sweepRecall(dir, 20, 7, now);
    for (let i = 0; i < 22; i++) put(dir, hex(i), now - i * 60_000);
    sweepRecall(dir, 20, 7, now + 1000);
    assert.equal(listRecall(dir).length, 22, "two over a limit of 20 is within its slack");
    put(dir, hex(22), now - 22 * 60_000);
    sweepRecall(dir, 20, 7, now + 2000);
    assert.deepEqual(
      listRecall(dir).map((m) => m.id),
      Array.from({ length: 20 }, (_, i) => hex(i)),
    );
  });

  test("a symlink where the record goes is neither followed nor written through", () => {
    const dir = store();
    const target = join(dir, "..", "elsewhere.txt");
    const before = String(Date.now());
    writeFileSync(target, before);
    symlinkSync(target, swept(dir));
    put(dir, "aaaaaa1", Date.now() - 8 * DAY);
    sweepRecall(dir, 200, 7);
    assert.deepEqual(ids(dir), [], "the record behind a symlink is not believed");
    assert.ok(!lstatSync(swept(dir)).isSymbolicLink());
    assert.equal(readFileSync(target, "utf8"), before, "the symlink's target is untouched");
  });
});

describe("ids", () => {
  test("fresh ids are 7 hex characters and unique among kept entries", () => {
    const dir = store();
    const seen = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const id = newRecallId(dir);
      assert.match(id, ID);
      assert.ok(!seen.has(id));
      seen.add(id);
      put(dir, id, Date.now());
    }
  });
});

describe("rtk recall of bytes that are not UTF-8", () => {
  test("the whole entry comes back byte for byte", () => {
    const b = box();
    const bytes = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0xfe, 0x0a]);
    const git = fakeGit(b, `printf 'caf\\351\\n\\377\\376\\n'; exit 1`);
    const r = rtk(b, [git, "status"]);
    assert.equal(r.status, 1);
    ensureRecallDir(b.recall);
    const [entry] = listRecall(b.recall);
    assert.ok(entry, "the failing run was kept");
    const back = spawnSync(RTK, ["recall", entry.id], { cwd: b.cwd, env: b.env });
    assert.deepEqual(back.stdout, bytes);
  });
});

describe("rtk recall", () => {
  const b = box();
  // Out and err lines alternate, with pauses long enough that they arrive in this order on a loaded machine.
  const git = fakeGit(b, 'for i in 1 2 3 4 5 6; do echo "out $i"; sleep 0.2; echo "err $i" >&2; sleep 0.2; done; exit 1');
  const INTERLEAVED = [1, 2, 3, 4, 5, 6].flatMap((i) => [`out ${i}`, `err ${i}`]);
  let realId = "";
  let fakeId = "";

  before(() => {
    ensureBuilt();
    assert.equal(rtk(b, ["git", "status"]).status, 128);
    realId = ids(b.recall)[0] ?? "";
    spawnSync("sleep", ["0.02"]);
    const r = rtk(b, [git, "status"]);
    assert.equal(r.status, 1, r.stderr);
    fakeId = ids(b.recall).find((id) => id !== realId) ?? "";
  });

  test("--list: one line per entry, newest first: id, age, exit code, size, command", () => {
    const r = rtk(b, ["recall", "--list"]);
    assert.equal(r.status, 0, r.stderr);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines.length, 2, r.stdout);
    const size = (id: string) => `${statSync(join(b.recall, `${id}.txt`)).size} B`;
    assert.match(lines[0]!, new RegExp(`^${fakeId} +\\d+s ago  exit 1 +${size(fakeId)}  ${git} status$`));
    assert.match(lines[1]!, new RegExp(`^${realId} +\\d+s ago  exit 128 +${size(realId)}  git status$`));
    for (const id of [realId, fakeId]) assert.match(id, ID);
  });

  test("--list with no store prints nothing, exit 0", () => {
    const r = rtk(box(), ["recall", "--list"]);
    assert.deepEqual([r.status, r.stdout], [0, ""]);
  });

  test("<id>: the raw output, stdout and stderr interleaved as received", () => {
    const r = rtk(b, ["recall", fakeId]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stdout, INTERLEAVED.join("\n") + "\n");
    assert.match(rtk(b, ["recall", realId]).stdout, /^fatal: not a git repository/);
  });

  for (const [args, want] of [
    [["--head", "3"], INTERLEAVED.slice(0, 3)],
    [["--tail", "2"], INTERLEAVED.slice(-2)],
    [
      ["--grep", "err [24]"],
      ["err 2", "err 4"],
    ],
    [
      ["--grep", "^out", "--head", "2"],
      ["out 1", "out 2"],
    ],
    [["--grep", "^out", "--tail", "1"], ["out 6"]],
    [["--head", "0"], []],
    [["--grep", "nothing like this"], []],
  ] as const) {
    test(`<id> ${args.join(" ")}`, () => {
      const r = rtk(b, ["recall", fakeId, ...args]);
      // As grep: a pattern nothing matched is status 1.
      assert.equal(r.status, args[0] === "--grep" && !want.length ? 1 : 0, r.stderr);
      assert.equal(r.stdout, want.length ? want.join("\n") + "\n" : "");
    });
  }

  test("an invalid --grep pattern → exit 2 with a message", () => {
    const r = rtk(b, ["recall", fakeId, "--grep", "("]);
    assert.equal(r.status, 2);
    assert.match(r.stderr, /^rtk recall: invalid pattern/);
  });

  test("an unknown id → exit 1 with a message", () => {
    const unknown = realId === "0000000" || fakeId === "0000000" ? "0000001" : "0000000";
    const r = rtk(b, ["recall", unknown]);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, "");
    assert.equal(r.stderr, `rtk recall: no entry \`${unknown}\` (see \`rtk recall --list\`)\n`);
  });

  test("no id and no --list: a usage error, exit 2", () => {
    const r = rtk(b, ["recall"]);
    assert.equal(r.status, 2);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^rtk recall: .*\nusage: rtk recall/);
  });

  for (const bad of ["../../x", "ABCDEF1", "abc123", "abc12345", `${"."}/${"a".repeat(7)}`]) {
    test(`a malformed id ${JSON.stringify(bad)} → exit 1 with a message`, () => {
      const r = rtk(b, ["recall", ...(bad ? [bad] : [])]);
      assert.equal(r.status, 1);
      assert.equal(r.stdout, "");
      assert.match(r.stderr, /^rtk recall: no entry/);
    });
  }

  test("a huge failing run keeps at most 16 MiB; rtk recall says the entry was cut", () => {
    const c = box();
    // Hint lines, which the git status filter drops as they come.
    const big = fakeGit(c, `yes '  (use "git add")' | head -c 20000000; exit 3`);
    const r = spawnSync(RTK, [big, "status"], { cwd: c.cwd, env: c.env, stdio: ["ignore", "ignore", "pipe"], encoding: "utf8" });
    assert.equal(r.status, 3, r.stderr);
    const [id] = ids(c.recall);
    assert.equal(statSync(join(c.recall, `${id}.txt`)).size, MAX_RECALL_BYTES);
    const m = JSON.parse(readFileSync(join(c.recall, `${id}.json`), "utf8")) as RecallMeta;
    assert.deepEqual([m.bytes, m.truncated], [MAX_RECALL_BYTES, true]);
    const t = rtk(c, ["recall", id!, "--head", "1"]);
    assert.equal(t.status, 0);
    assert.equal(t.stdout, '  (use "git add")\n');
    assert.equal(t.stderr, `rtk recall: the entry was cut at ${MAX_RECALL_BYTES} bytes\n`);
  });
});

describe("rtk recall --list: commands as a shell reads them back", () => {
  test("words with globs, blanks, quotes and an empty word are quoted; the line runs the same argv", () => {
    const b = box();
    const git = fakeGit(b, "echo 'fatal: nope' >&2; exit 2");
    const argv = [git, "status", "--", "*.ts", "a b", "it's", "", "$HOME", "plain-word.txt"];
    assert.equal(rtk(b, argv).status, 2);
    const r = rtk(b, ["recall", "--list"]);
    assert.equal(r.status, 0, r.stderr);
    const shown = r.stdout.trimEnd().split("  ").pop()!;
    assert.equal(shown, `${git} status -- '*.ts' 'a b' 'it'\\''s' '' '$HOME' plain-word.txt`);
    // Read back by a shell: the same words.
    const back = spawnSync("bash", ["-c", `set -- ${shown}; printf '%s\\0' "$@"`], { cwd: b.cwd, encoding: "utf8" });
    assert.deepEqual(back.stdout.split("\0").slice(0, -1), argv);
  });

  test("an entry made in another folder says where", () => {
    const b = box();
    assert.equal(rtk(b, ["git", "status"]).status, 128);
    const r = launchSync(["recall", "--list"], { cwd: b.root, env: b.env });
    assert.match(r.stdout, new RegExp(`  git status  \\(in ${b.cwd}\\)\n$`));
  });
});

describe("the same raw output of the same command is kept once", () => {
  const handle = (out: string) => /\[rtk recall ([0-9a-f]{7})\]/.exec(out)?.[1];
  /** A git status whose output is cut behind a handle, the same bytes each time. */
  const untracked = "echo 'On branch main'; echo 'Untracked files:'; i=0; while [ $i -lt 60 ]; do printf '\\tf%02d.txt\\n' $i; i=$((i+1)); done";
  const limits = (b: Box) => {
    mkdirSync(join(b.config, "rtk"), { recursive: true });
    writeFileSync(join(b.config, "rtk", "config.toml"), "[limits]\nlist_tokens = 20\n");
  };

  test("a rerun: the same handle, one copy stored, the list shows it once", () => {
    const b = box();
    limits(b);
    const git = fakeGit(b, untracked);
    const first = rtk(b, [git, "status"]);
    const second = rtk(b, [git, "status"]);
    const [h1, h2] = [handle(first.stdout), handle(second.stdout)];
    assert.ok(h1 && h1 === h2, first.stdout + second.stdout);
    assert.deepEqual(
      readdirSync(b.recall).filter((f) => f.endsWith(".txt")),
      [`${h1}.txt`],
    );
    const raw = spawnSync(git, ["status"], { encoding: "utf8" }).stdout;
    assert.equal(rtk(b, ["recall", h1!]).stdout, raw);
    const list = rtk(b, ["recall", "--list"]).stdout.trimEnd().split("\n");
    assert.equal(list.length, 1, list.join("\n"));
    assert.match(list[0]!, new RegExp(`^${h1} `));
  });

  test("different bytes, another folder or another exit code: separate entries", () => {
    const b = box();
    limits(b);
    const counter = join(b.root, "n");
    writeFileSync(counter, "0");
    const changing = fakeGit(b, `${untracked}; n=$(cat ${counter}); echo $((n+1)) > ${counter}; echo "run $n"`);
    rtk(b, [changing, "status"]);
    rtk(b, [changing, "status"]);
    assert.equal(readdirSync(b.recall).filter((f) => f.endsWith(".txt")).length, 2);

    const c = box();
    limits(c);
    const git = fakeGit(c, untracked);
    rtk(c, [git, "status"]);
    mkdirSync(join(c.cwd, "sub"));
    const r = launchSync([git, "status"], { cwd: join(c.cwd, "sub"), env: c.env });
    assert.equal(r.status, 0, r.stderr);
    const exit1 = fakeGit(c, `${untracked}; exit 1`);
    rtk(c, [exit1, "status"]);
    assert.equal(readdirSync(c.recall).filter((f) => f.endsWith(".txt")).length, 3);
  });

  /** Two entries of the same run filled one after the other, the older made an alias of the newer (as a run whose handle was printed before its output was whole). */
  function aliased(b: Box): [older: string, newer: string] {
    mkdirSync(b.recall, { recursive: true, mode: 0o700 });
    const store = openRecallDir(b.recall, { create: false });
    try {
      const meta = { argv: ["git", "status"], exitCode: 0, route: "git.status", time: Date.now(), cwd: b.cwd };
      const fill = (write: (x: Buffer) => boolean) => void write(Buffer.from("same bytes\n"));
      const older = fillRecall(reserveRecall(store)!, meta, fill);
      const newer = fillRecall(reserveRecall(store)!, { ...meta, time: meta.time + 1 }, fill);
      dedupRecall(store.dir, newer);
      return [older.id, newer.id];
    } finally {
      store.close();
    }
  }

  test("an alias gives its target's bytes; once the target holds other bytes, it gives nothing rather than other bytes", () => {
    const b = box();
    const [h1, h2] = aliased(b);
    assert.deepEqual(
      readdirSync(b.recall).filter((f) => f.endsWith(".txt")),
      [`${h2}.txt`],
    );
    assert.equal(rtk(b, ["recall", h1]).stdout, "same bytes\n");
    const meta2 = JSON.parse(readFileSync(join(b.recall, `${h2}.json`), "utf8")) as RecallMeta;
    writeFileSync(join(b.recall, `${h2}.json`), JSON.stringify({ ...meta2, sha256: "0".repeat(64) }));
    const r = rtk(b, ["recall", h1]);
    assert.equal(r.status, 1);
    assert.equal(r.stdout, "");
  });

  test("pruning: an alias goes with the entry it names", () => {
    const b = box();
    const [h1, h2] = aliased(b);
    const store = openRecallDir(b.recall, { create: false });
    try {
      pruneRecall(store.dir, 200, 7, Date.now());
      assert.deepEqual(ids(b.recall), [h1, h2].sort());
      pruneRecall(store.dir, 0, 7, Date.now());
    } finally {
      store.close();
    }
    assert.deepEqual(readdirSync(b.recall), []);
  });
});
