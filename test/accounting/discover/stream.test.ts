// `rtk discover` on a transcript larger than its heap (the file is streamed, not
// read whole), and its progress line, which only a terminal gets.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { closeSync, mkdirSync, openSync, writeSync } from "node:fs";
import { join } from "node:path";
import { after, describe, test } from "node:test";
import { repoRoot } from "../../support/corpus.js";
import { RTK, retryingRebuildRace } from "../../support/launch.js";
import { removeSandboxes, sandbox } from "../../support/sandbox.js";

/** A Claude Code session of `calls` pytest runs, each result `outputBytes` long. */
function bigSession(path: string, calls: number, outputBytes: number): void {
  const output = ("F".repeat(79) + "\n").repeat(Math.ceil(outputBytes / 80)).slice(0, outputBytes);
  const fd = openSync(path, "w");
  try {
    for (let i = 0; i < calls; i++) {
      const meta = { cwd: "/home/u/big", sessionId: "big", timestamp: "2026-11-01T10:00:00.000Z" };
      writeSync(
        fd,
        JSON.stringify({ type: "assistant", ...meta, message: { role: "assistant", content: [{ type: "tool_use", id: `toolu_${i}`, name: "Bash", input: { command: "pytest -v" } }] } }) + "\n",
      );
      writeSync(fd, JSON.stringify({ type: "user", ...meta, message: { role: "user", content: [{ type: "tool_result", tool_use_id: `toolu_${i}`, content: output }] } }) + "\n");
    }
  } finally {
    closeSync(fd);
  }
}

describe("rtk discover on large transcripts", () => {
  after(removeSandboxes);

  test("a 60 MB transcript is read with a 24 MB heap: every command counted", () => {
    const sb = sandbox("rtk-discover-big-");
    const file = join(sb.root, "big.jsonl");
    bigSession(file, 150, 400_000);
    // The plain bundle (the launcher's snapshot start cannot take a heap flag): the same code.
    const r = retryingRebuildRace(() =>
      spawnSync(process.execPath, ["--max-old-space-size=24", join(repoRoot, "dist", "rtk.cjs"), "discover", "--json", file], { cwd: sb.cwd, env: sb.env, encoding: "utf8" }),
    );
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout);
    assert.deepEqual(got.transcripts, { files: { claude: 1, codex: 0 }, lines: 300, malformed: 0 });
    assert.deepEqual([got.totals.commands, got.totals.missed, got.totals.missedChars], [150, 150, 150 * 400_000]);
  });

  test("a progress line on a terminal's stderr, cleared at the end; none when stderr is not a terminal", () => {
    const sb = sandbox("rtk-discover-tty-");
    const dir = join(sb.root, "t");
    mkdirSync(dir);
    bigSession(join(dir, "s.jsonl"), 20, 50_000);
    // script(1) gives the command a terminal; what it printed there comes back on stdout.
    const tty = spawnSync("script", ["-qec", `'${RTK}' discover --json '${dir}'`, "/dev/null"], { cwd: sb.cwd, env: sb.env, encoding: "utf8" });
    assert.equal(tty.status, 0, tty.stderr);
    assert.match(tty.stdout, /\rrtk discover: 0\/1 files, [\d.]+ of 1\.0 MB\x1b\[K/);
    assert.match(tty.stdout, /\r\x1b\[K/);
    const piped = spawnSync(RTK, ["discover", "--json", dir], { cwd: sb.cwd, env: sb.env, encoding: "utf8" });
    assert.equal(piped.status, 0);
    assert.equal(piped.stderr, "");
    assert.equal(JSON.parse(piped.stdout).totals.commands, 20);
  });
});
