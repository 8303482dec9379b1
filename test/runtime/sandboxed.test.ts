// rtk inside a host's sandbox (Codex's workspace-write and read-only): its
// data and cache folders cannot be written there. The tool's output and exit
// code must not change, nothing is added on stderr and nothing waits on them;
// only what needs the folders is lost, and says so (a recall marker reads
// `unavailable`). A read-only place is stood in for by /proc/self (no file can
// be made under it, whoever runs the test).
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { spawnSync } from "node:child_process";
import { ensureBuilt } from "../support/build.js";
import { launchSync } from "../support/launch.js";

before(() => ensureBuilt());

let root = "";
let repo = "";
before(() => {
  root = mkdtempSync(join(tmpdir(), "rtk-sandboxed-"));
  repo = join(root, "repo");
  mkdirSync(join(repo, "src"), { recursive: true });
  for (let i = 0; i < 12; i++) writeFileSync(join(repo, `file-${i}.txt`), `line ${i}\n`);
  const git = (...a: string[]) =>
    spawnSync("git", a, {
      cwd: repo,
      env: { ...process.env, GIT_CONFIG_NOSYSTEM: "1", HOME: root, GIT_AUTHOR_NAME: "Dev", GIT_AUTHOR_EMAIL: "d@e", GIT_COMMITTER_NAME: "Dev", GIT_COMMITTER_EMAIL: "d@e" },
    });
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "initial");
  writeFileSync(join(repo, "file-0.txt"), "changed\n");
});
after(() => rmSync(root, { recursive: true, force: true }));

function env(folders: "writable" | "read-only"): Record<string, string> {
  const base = folders === "writable" ? join(root, "w") : "/proc/self";
  return {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: join(root, "home"),
    GIT_CONFIG_NOSYSTEM: "1",
    XDG_DATA_HOME: join(base, "data"),
    XDG_CACHE_HOME: join(base, "cache"),
    XDG_CONFIG_HOME: join(root, "config"),
  };
}

describe("rtk with its data and cache folders read-only (inside Codex's sandbox)", () => {
  for (const args of [
    ["git", "status"],
    ["ls", "-la"],
    ["git", "log", "-n", "3"],
    ["cat", "file-1.txt"],
  ]) {
    test(`rtk ${args.join(" ")}: the same output and exit code, nothing on stderr`, () => {
      const ok = launchSync(args, { cwd: repo, env: env("writable"), timeout: 30_000 });
      const ro = launchSync(args, { cwd: repo, env: env("read-only"), timeout: 30_000 });
      assert.equal(ro.status, ok.status);
      assert.equal(ro.stderr, "", ro.stderr);
      // Only a recall handle differs: the store that would keep what was left out cannot be written.
      assert.equal(ro.stdout, ok.stdout.replace(/\[rtk recall [0-9a-f]+\]/g, "[rtk recall unavailable]"));
    });
  }
});
