// The cost of what hook hosts are told at a session's start (text/markers.ts):
// each session start `rtk hook` answers with rtk's context is recorded, and
// `rtk gain` takes sessions × the context's tokens from the savings. The
// existing figures of `rtk gain --json` stay as they were; the new ones sit
// beside them.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { exactTokens } from "../../src/accounting/tokens.js";
import { sessionContext } from "../../src/text/markers.js";
import { ensureBuilt } from "../support/build.js";
import { launchSync } from "../support/launch.js";
import { removeSandboxes, sandbox, type Sandbox } from "../support/sandbox.js";

before(() => ensureBuilt());
after(removeSandboxes);

const start = (b: Sandbox, host: string, session: string) =>
  launchSync(["hook", host], { cwd: b.cwd, env: b.env, input: JSON.stringify({ session_id: session, transcript_path: "/dev/null", cwd: b.cwd, hook_event_name: "SessionStart", source: "startup" }) });

function gainJson(b: Sandbox): Record<string, unknown> {
  const r = launchSync(["gain", "--json"], { cwd: b.cwd, env: b.env });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Record<string, unknown>;
}

test("the context is at most 80 o200k tokens", () => {
  const n = exactTokens(sessionContext());
  assert.ok(n !== null && n <= 80, `${n} tokens:\n${sessionContext()}`);
});

test("each session start answered with the context is counted; rtk gain reports the savings net of it", () => {
  const b = sandbox("rtk-session-");
  for (const [host, id] of [
    ["claude", "s1"],
    ["codex", "s2"],
    ["gemini", "s3"],
  ] as const) {
    const r = start(b, host, id);
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.stdout.includes(JSON.stringify(sessionContext())), `${host}: ${r.stdout}`);
  }
  // A run that saved something, from rtk itself.
  writeFileSync(join(b.cwd, "a.txt"), "a\n");
  for (let i = 0; i < 40; i++) writeFileSync(join(b.cwd, `file-${i}.ts`), "x\n");
  assert.equal(launchSync(["ls", "-la"], { cwd: b.cwd, env: b.env }).status, 0);
  const g = gainJson(b);
  const per = exactTokens(sessionContext())!;
  assert.deepEqual(g["context"], { sessions: 3, tokensPerSession: per, tokens: 3 * per });
  const totals = g["totals"] as Record<string, number>;
  assert.equal(g["netSavedTokens"], totals["savedTokens"]! - 3 * per);
  // The fields it had before, as they were.
  for (const k of ["filter", "totals", "routes", "hooks", "tornLines", "tornThisIngestion", "driver"]) assert.ok(k in g, k);
  for (const k of ["runs", "rawTokens", "outTokens", "savedTokens", "savedPct", "omitted", "recalls", "fellBack", "exactRuns"]) assert.ok(k in totals, k);
  // A session's context is no decision about a command: the hook coverage does not count it.
  assert.equal((g["hooks"] as { decisions: number }).decisions, 0);
  const text = launchSync(["gain"], { cwd: b.cwd, env: b.env }).stdout;
  assert.match(
    text,
    new RegExp(`^session context: 3 sessions × ${per} tokens = ${3 * per}   saved net of it: ${String(totals["savedTokens"]! - 3 * per).replace(/\B(?=(\d{3})+(?!\d))/g, ",")}$`, "m"),
  );
});

test("rtk gain --html reports the session context as rtk gain does: its sessions, tokens per session and the savings net of it", () => {
  const b = sandbox("rtk-session-html-");
  for (const [host, id] of [
    ["claude", "s1"],
    ["qwen", "s2"],
  ] as const)
    assert.equal(start(b, host, id).status, 0);
  for (let i = 0; i < 40; i++) writeFileSync(join(b.cwd, `file-${i}.ts`), "x\n");
  assert.equal(launchSync(["ls", "-la"], { cwd: b.cwd, env: b.env }).status, 0);
  const text = launchSync(["gain"], { cwd: b.cwd, env: b.env }).stdout;
  const line = /^session context: (2) sessions × ([\d,]+) tokens = ([\d,]+) {3}saved net of it: (-?[\d,]+)$/m.exec(text);
  assert.ok(line, text);
  const file = join(b.root, "gain.html");
  const r = launchSync(["gain", "--html", file], { cwd: b.cwd, env: b.env });
  assert.equal(r.status, 0, r.stderr);
  const html = readFileSync(file, "utf8");
  const tile = /<div class="tile"><span>saved net of the session context<\/span><b>(-?[\d,]+)<\/b><span>session context: (\d+) sessions × ([\d,]+) tokens = ([\d,]+)<\/span><\/div>/.exec(html);
  assert.ok(tile, "the page has the session context's tile");
  assert.deepEqual([tile[2], tile[3], tile[4], tile[1]], [line[1], line[2], line[3], line[4]], "the same figures as rtk gain's line");
  const g = gainJson(b);
  assert.equal(tile[1], String(g["netSavedTokens"]).replace(/\B(?=(\d{3})+(?!\d))/g, ","));
});

test("rtk gain --html without a session start: no session context tile", () => {
  const b = sandbox("rtk-session-html-none-");
  assert.equal(launchSync(["ls", "-la"], { cwd: b.cwd, env: b.env }).status, 0);
  const file = join(b.root, "gain.html");
  assert.equal(launchSync(["gain", "--html", file], { cwd: b.cwd, env: b.env }).status, 0);
  assert.doesNotMatch(readFileSync(file, "utf8"), /session context/);
});

test("switched off (hooks.session_context = false): no context, nothing counted", () => {
  const b = sandbox("rtk-session-off-");
  mkdirSync(join(b.config, "rtk"), { recursive: true });
  writeFileSync(join(b.config, "rtk", "config.toml"), "[hooks]\nsession_context = false\n");
  const r = start(b, "claude", "s1");
  assert.equal(r.status, 0);
  assert.equal(r.stdout, "");
  assert.deepEqual(gainJson(b)["context"], { sessions: 0, tokensPerSession: exactTokens(sessionContext()), tokens: 0 });
});

test("RTK_RAW=1 before a command: what the hook hands back keeps it, and prints the raw output; so does rtk --raw", () => {
  const b = sandbox("rtk-session-raw-");
  for (let i = 0; i < 40; i++) writeFileSync(join(b.cwd, `file-${i}.ts`), "x\n");
  const event = JSON.stringify({ session_id: "s", cwd: b.cwd, hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "RTK_RAW=1 ls -la" }, permission_mode: "bypassPermissions" });
  const answer = launchSync(["hook", "claude"], { cwd: b.cwd, env: b.env, input: event }).stdout;
  const handed = answer ? (JSON.parse(answer) as { hookSpecificOutput: { updatedInput: { command: string } } }).hookSpecificOutput.updatedInput.command : "RTK_RAW=1 ls -la";
  assert.match(handed, /^RTK_RAW=1 /);
  const sh = (command: string) => spawnSync("/bin/sh", ["-c", command], { cwd: b.cwd, env: b.env, encoding: "utf8" }).stdout;
  const untimed = (s: string) => s.replace(/\d\d:\d\d/g, "");
  const raw = untimed(sh("ls -la"));
  assert.equal(untimed(sh(handed)), raw);
  assert.equal(untimed(launchSync(["--raw", "ls", "-la"], { cwd: b.cwd, env: b.env }).stdout), raw);
  assert.notEqual(untimed(launchSync(["ls", "-la"], { cwd: b.cwd, env: b.env }).stdout), raw, "the compact form differs from the raw output");
});
