// The transcript readers on each form the hosts write, line by line, and the
// --since reading: tables of input lines and the calls they give.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { ClaudeReader } from "../../../src/accounting/discover/claude.js";
import { CodexReader } from "../../../src/accounting/discover/codex.js";
import type { ShellCall } from "../../../src/accounting/discover/records.js";
import { parseSince } from "../../../src/cli/discover.js";

function read(Reader: typeof ClaudeReader | typeof CodexReader, lines: object[]): ShellCall[] {
  const calls: ShellCall[] = [];
  const r = new Reader((c) => calls.push(c));
  for (const l of lines) r.line(l as Record<string, unknown>);
  r.end();
  return calls;
}

const pick = (c: ShellCall) => ({ id: c.id, command: c.command, output: c.output, exitCode: c.exitCode, truncated: c.truncated, cwd: c.cwd, project: c.project });

describe("Claude Code transcripts", () => {
  const meta = (cwd: string) => ({ cwd, sessionId: "s", timestamp: "2026-11-01T10:00:00.000Z" });
  const use = (id: string, command: string, cwd = "/p") => ({ type: "assistant", ...meta(cwd), message: { role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: { command } }] } });
  const result = (id: string, content: unknown, isError?: boolean) => ({
    type: "user",
    ...meta("/p"),
    message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, ...(isError === undefined ? {} : { is_error: isError }) }] },
  });

  test("results as a string, as text items, failed with their exit code, cut, missing", () => {
    const calls = read(ClaudeReader, [
      use("a", "git status"),
      result("a", "clean"),
      use("b", "ls", "/p/sub"),
      result("b", [
        { type: "text", text: "one" },
        { type: "text", text: "two" },
      ]),
      use("c", "pytest"),
      result("c", "Exit code 2\nERROR collecting", true),
      use("d", "make"),
      result("d", "boom", true),
      use("e", "cat big.log"),
      result("e", "<persisted-output>\nOutput too large (85.4KB). Full output saved to: /x/e.txt\n\nPreview (first 2KB):\nline\n...\n</persisted-output>"),
      use("f", "yes | head -100000"),
      result("f", "y\ny\n\n... [99000 lines truncated] ...\n\ny\ny"),
      use("g", "sleep 100"),
      { type: "assistant", ...meta("/p"), message: { role: "assistant", content: [{ type: "tool_use", id: "h", name: "Read", input: { file_path: "/x" } }] } },
      result("h", "file text"),
    ]);
    assert.deepEqual(calls.map(pick), [
      { id: "a", command: "git status", output: "clean", exitCode: 0, truncated: false, cwd: "/p", project: "/p" },
      { id: "b", command: "ls", output: "one\ntwo", exitCode: 0, truncated: false, cwd: "/p/sub", project: "/p" },
      { id: "c", command: "pytest", output: "ERROR collecting", exitCode: 2, truncated: false, cwd: "/p", project: "/p" },
      { id: "d", command: "make", output: "boom", exitCode: 1, truncated: false, cwd: "/p", project: "/p" },
      { id: "e", command: "cat big.log", output: calls[4]!.output, exitCode: 0, truncated: true, cwd: "/p", project: "/p" },
      { id: "f", command: "yes | head -100000", output: calls[5]!.output, exitCode: 0, truncated: true, cwd: "/p", project: "/p" },
      { id: "g", command: "sleep 100", output: null, exitCode: null, truncated: false, cwd: "/p", project: "/p" },
    ]);
    assert.equal(calls[0]!.time, Date.parse("2026-11-01T10:00:00.000Z"));
  });
});

describe("Codex rollouts", () => {
  const line = (type: string, payload: object) => ({ timestamp: "2026-11-02T08:00:00.000Z", type, payload });
  const call = (name: string, args: object, id: string) => line("response_item", { type: "function_call", name, arguments: JSON.stringify(args), call_id: id });
  const out = (id: string, output: unknown) => line("response_item", { type: "function_call_output", call_id: id, output });

  test("shell (argv), shell_command, exec_command and local_shell_call; JSON and text outputs; the cut", () => {
    const calls = read(CodexReader, [
      line("session_meta", { id: "sess", cwd: "/repo" }),
      call("shell", { command: ["bash", "-lc", "git status && git diff"], workdir: "/repo" }, "c1"),
      out("c1", JSON.stringify({ output: "clean\n", metadata: { exit_code: 0, duration_seconds: 0.1 } })),
      call("shell", { command: ["ls", "-la", "my dir"] }, "c2"),
      out("c2", JSON.stringify({ output: "x", metadata: { exit_code: 2 } })),
      line("turn_context", { cwd: "/repo/web" }),
      call("shell_command", { command: "npm test" }, "c3"),
      out("c3", "Exit code: 1\nWall time: 3.2 seconds\nOutput:\nFAIL a.test.js\n"),
      call("exec_command", { cmd: "cargo build", workdir: "/repo/rs" }, "c4"),
      out("c4", "Chunk ID: 1\nWall time: 0.5 seconds\nProcess exited with code 101\nOriginal token count: 9\nOutput:\nerror[E0308]\n[... omitted 40 of 60 lines ...]\nend"),
      line("response_item", { type: "local_shell_call", call_id: "c5", status: "completed", action: { type: "exec", command: ["sh", "-c", "pwd"] } }),
      out("c5", { output: "/repo\n", metadata: { exit_code: 0 } }),
      call("apply_patch", { input: "*** Begin Patch" }, "c6"),
      out("c6", "Done"),
      call("shell", { command: ["bash", "-lc", "sleep 9"] }, "c7"),
    ]);
    assert.deepEqual(calls.map(pick), [
      { id: "c1", command: "git status && git diff", output: "clean\n", exitCode: 0, truncated: false, cwd: "/repo", project: "/repo" },
      { id: "c2", command: "ls -la 'my dir'", output: "x", exitCode: 2, truncated: false, cwd: "/repo", project: "/repo" },
      { id: "c3", command: "npm test", output: "FAIL a.test.js\n", exitCode: 1, truncated: false, cwd: "/repo/web", project: "/repo" },
      { id: "c4", command: "cargo build", output: "error[E0308]\n[... omitted 40 of 60 lines ...]\nend", exitCode: 101, truncated: true, cwd: "/repo/rs", project: "/repo" },
      { id: "c5", command: "pwd", output: "/repo\n", exitCode: 0, truncated: false, cwd: "/repo/web", project: "/repo" },
      { id: "c7", command: "sleep 9", output: null, exitCode: null, truncated: false, cwd: "/repo/web", project: "/repo" },
    ]);
    assert.ok(calls.every((c) => c.session === "sess" && c.source === "codex"));
  });
});

describe("--since", () => {
  const now = Date.UTC(2026, 11, 3, 14, 0);
  const cases: [string, number | null][] = [
    ["2026-11-30", Date.UTC(2026, 10, 30)],
    ["2026-11-30T12:30Z", Date.UTC(2026, 10, 30, 12, 30)],
    ["2026-11-30T12:30", Date.UTC(2026, 10, 30, 12, 30)],
    ["2026-11-30 12:30:15", Date.UTC(2026, 10, 30, 12, 30, 15)],
    ["2026-11-30T12:30+02:00", Date.UTC(2026, 10, 30, 10, 30)],
    ["7d", now - 7 * 86_400_000],
    ["12h", now - 12 * 3_600_000],
    ["30m", now - 30 * 60_000],
    ["yesterday", null],
    ["2026-13-45", null],
    ["7", null],
  ];
  for (const [input, want] of cases) test(input, () => assert.equal(parseSince(input, now), want));
});
