// The history store (spec/tracking.md, "What is recorded"): the spool ingested
// into SQLite under many concurrent writers with nothing lost or counted twice,
// torn lines skipped and counted, a versioned schema, 90-day pruning, and the
// faults (locked, read-only, full, corrupt) that change no command's output or
// exit code while `rtk gain` says what is wrong and leaves the data alone.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { MIGRATIONS, SCHEMA_VERSION } from "../../src/accounting/store.js";
import { ensureBuilt } from "../support/build.js";
import { launch, launchSync, RTK } from "../support/launch.js";
import { removeSandboxes, sandbox, type Sandbox } from "../support/sandbox.js";
import { box, dbPath, gainJson, hook, integrity, REPORT, reports, rtkDir, run, spoolLines } from "./store-support.js";

before(() => ensureBuilt());
after(removeSandboxes);

function canMount(): boolean {
  const dir = join(sandbox("rtk-mount-").root, "m");
  mkdirSync(dir);
  const ok = spawnSync("mount", ["-t", "tmpfs", "-o", "size=64k", "tmpfs", dir]).status === 0;
  if (ok) spawnSync("umount", [dir]);
  return ok;
}

describe("ingestion", () => {
  test("a writer killed mid-line: the torn bytes are skipped and counted, the records around them kept", () => {
    const b = box();
    spoolLines(b, [run({ route: "a" })]);
    // Killed mid-write: part of a line, no newline; the next writer appends after it.
    appendFileSync(join(rtkDir(b), "spool.jsonl"), '{"kind":"run","time":17');
    spoolLines(b, [run({ route: "b" })]);
    appendFileSync(join(rtkDir(b), "spool.jsonl"), "not json at all\n");
    let g = gainJson(b);
    assert.equal(g.totals.runs, 2);
    assert.equal(g.tornLines, 1);
    // A torn last line in a spool file no writer has touched for long is counted once, and the file goes.
    const old = join(rtkDir(b), "spool.1000.1.abc.ingesting");
    writeFileSync(old, JSON.stringify(run({ route: "c" })) + "\n" + '{"kind":"hook","ti');
    const past = new Date(Date.now() - 3600_000);
    utimesSync(old, past, past);
    g = gainJson(b);
    assert.equal(g.totals.runs, 3);
    assert.equal(g.tornLines, 2);
    assert.deepEqual(
      readdirSync(rtkDir(b)).filter((n) => n.includes("1000.1.abc")),
      [],
    );
    assert.equal(integrity(b), "ok");
  });

  test("a spool moved aside while a writer still appends: read again from where it stopped, nothing twice", () => {
    const b = box();
    spoolLines(b, [run({ route: "x" }), run({ route: "x" })]);
    assert.equal(gainJson(b).totals.runs, 2);
    const [moved] = readdirSync(rtkDir(b)).filter((n) => n.endsWith(".ingesting"));
    assert.ok(moved, "a recent spool file stays until no writer can still be in it");
    appendFileSync(join(rtkDir(b), moved!), JSON.stringify(run({ route: "x" })) + "\n");
    assert.equal(gainJson(b).totals.runs, 3);
    assert.equal(gainJson(b).totals.runs, 3);
  });

  test("records older than 90 days are pruned; the schema is versioned", () => {
    const b = box();
    const day = 86_400_000;
    spoolLines(b, [run({ time: Date.now() - 91 * day }), run({ time: Date.now() - 89 * day }), hook({ time: Date.now() - 100 * day }), hook()]);
    assert.equal(gainJson(b).totals.runs, 1);
    const db = reports().openDb(dbPath(b), { readOnly: true });
    try {
      assert.equal(Number(db.all("PRAGMA user_version")[0]?.["user_version"]), SCHEMA_VERSION);
      assert.equal(Number(db.all("SELECT count(*) AS n FROM hooks")[0]?.["n"]), 1);
    } finally {
      db.close();
    }
    assert.equal(statSync(dbPath(b)).mode & 0o777, 0o600);
  });

  test("a database from a newer rtk is left alone, with a clear error", () => {
    const b = box();
    spoolLines(b, [run()]);
    gainJson(b);
    const db = reports().openDb(dbPath(b));
    db.exec("PRAGMA user_version = 99");
    db.close();
    const before = readFileSync(dbPath(b));
    const r = launchSync(["gain"], { cwd: b.cwd, env: b.env });
    assert.equal(r.status, 1);
    assert.match(r.stderr, new RegExp(`^rtk gain: the history database was made by a newer rtk \\(schema 99, this rtk knows ${SCHEMA_VERSION}\\); it is left as it is\n$`));
    assert.deepEqual(readFileSync(dbPath(b)), before);
  });

  test("a store of the first schema is migrated in place: its rows kept, the new columns filled", () => {
    const b = box();
    mkdirSync(rtkDir(b), { recursive: true, mode: 0o700 });
    const db = reports().openDb(dbPath(b));
    db.exec(MIGRATIONS[0]!);
    db.exec(
      `INSERT INTO runs (time, project, route, command, exit_code, duration_ms, raw_bytes, out_bytes, raw_tokens, out_tokens, saved_tokens, fell_back, omitted, recall_id)
       VALUES (${Date.now() - 1000}, '/p', 'git.log', 'git log', 0, 5, 400, 100, 100, 25, 75, 0, 3, NULL)`,
    );
    db.exec("PRAGMA user_version = 1");
    db.close();
    spoolLines(b, [run()]);
    const j = gainJson(b) as unknown as { totals: { runs: number; exactRuns: number }; routes: { route: string; savedTokens: number }[] };
    assert.deepEqual([j.totals.runs, j.totals.exactRuns], [2, 0]);
    assert.equal(j.routes.find((r) => r.route === "git.log")?.savedTokens, 75);
    const after = reports().openDb(dbPath(b), { readOnly: true });
    try {
      assert.equal(Number(after.all("PRAGMA user_version")[0]?.["user_version"]), SCHEMA_VERSION);
    } finally {
      after.close();
    }
    assert.equal(integrity(b), "ok");
  });
});

describe("faults: the command is unchanged, the report says what is wrong", () => {
  function sameAsUntracked(b: Sandbox, env = b.env): void {
    const base = launchSync(["ls"], { cwd: b.cwd, env: { ...env, RTK_NO_TRACK: "1" } });
    const r = launchSync(["ls"], { cwd: b.cwd, env });
    assert.equal(r.status, base.status);
    assert.equal(r.stdout, base.stdout);
    assert.equal(r.stderr, base.stderr);
  }

  test("corrupt: a one-line error, exit 1, the file kept byte for byte", () => {
    const b = box();
    mkdirSync(rtkDir(b), { recursive: true });
    const junk = Buffer.from("this is not a database\n".repeat(400));
    writeFileSync(dbPath(b), junk);
    sameAsUntracked(b);
    const r = launchSync(["gain"], { cwd: b.cwd, env: b.env });
    assert.equal(r.status, 1);
    assert.equal(r.stdout, "");
    assert.match(r.stderr, /^rtk gain: the history database .*history\.db is damaged \(.*\); it is left as it is: move it aside \(mv .*\) for rtk to start a new one\n$/);
    assert.deepEqual(readFileSync(dbPath(b)), junk);
    // The records wait in the spool: a new database after the user moves the old one aside has them.
    rmSync(dbPath(b));
    assert.equal(gainJson(b).totals.runs, 1);
  });

  test("locked: another process holds a write transaction; the report waits a moment, then says so", async () => {
    const b = box();
    spoolLines(b, [run()]);
    gainJson(b);
    const holder = spawn(
      process.execPath,
      [
        "-e",
        `const db = require(${JSON.stringify(REPORT)}).openDb(${JSON.stringify(dbPath(b))}); db.exec("BEGIN IMMEDIATE"); db.exec("DELETE FROM meta"); process.stdout.write("held\\n"); process.stdin.on("end", () => { db.exec("ROLLBACK"); db.close(); }); process.stdin.resume();`,
      ],
      {
        stdio: ["pipe", "pipe", "inherit"],
      },
    );
    await new Promise<void>((resolve) => holder.stdout!.once("data", () => resolve()));
    try {
      sameAsUntracked(b);
      const r = launchSync(["gain"], { cwd: b.cwd, env: b.env });
      assert.equal(r.status, 1);
      assert.match(r.stderr, /^rtk gain: the history database .*history\.db is locked by another process; try again when it is done\n$/);
    } finally {
      holder.stdin!.end();
      await new Promise((r) => holder.on("close", r));
    }
    assert.equal(gainJson(b).totals.runs, 2, "the run made while it was locked is there once the lock is gone");
  });

  test("read-only and full (a small tmpfs): nothing lost, the report says which", { skip: !canMount() && "needs mount (root)" }, () => {
    const b = box();
    const mnt = join(b.root, "mnt");
    mkdirSync(mnt);
    assert.equal(spawnSync("mount", ["-t", "tmpfs", "-o", "size=1m,mode=0700", "tmpfs", mnt]).status, 0);
    try {
      const env = { ...b.env, XDG_DATA_HOME: mnt };
      const w = { ...b, data: mnt, env };
      spoolLines(w, [run(), run()]);
      assert.equal(gainJson(w).totals.runs, 2);
      // Full: a filler takes every free byte, then the runs and the report.
      spoolLines(
        w,
        Array.from({ length: 200 }, () => run({ command: "x".repeat(400) })),
      );
      spawnSync("dd", ["if=/dev/zero", `of=${join(mnt, "filler")}`, "bs=4k"], { stdio: "ignore" });
      sameAsUntracked(w, env);
      let r = launchSync(["gain"], { cwd: b.cwd, env });
      assert.equal(r.status, 1);
      assert.match(r.stderr, /^rtk gain: cannot write the history database .*: the disk is full \(or the write failed\); the records wait in the spool\n$/);
      rmSync(join(mnt, "filler"));
      // The run made on the full disk is there when its line still fitted the spool's last page.
      const afterFull = gainJson(w).totals.runs;
      assert.ok(afterFull === 202 || afterFull === 203, String(afterFull));
      // Read-only.
      spoolLines(w, [run()]);
      assert.equal(spawnSync("mount", ["-o", "remount,ro", mnt]).status, 0);
      sameAsUntracked(w, env);
      r = launchSync(["gain"], { cwd: b.cwd, env });
      assert.equal(r.status, 1);
      assert.match(r.stderr, /^rtk gain: cannot write the history database .* \(.*\); the records wait in the spool\n$/);
      assert.equal(spawnSync("mount", ["-o", "remount,rw", mnt]).status, 0);
      // The record spooled before, and the run made while read-only did not get in.
      assert.equal(gainJson(w).totals.runs, afterFull + 1);
      assert.equal(integrity(w), "ok");
    } finally {
      spawnSync("umount", ["-l", mnt]);
    }
  });
});
