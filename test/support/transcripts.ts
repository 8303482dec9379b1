// Realistic agent transcripts for `rtk discover`, with the generator's own
// account of what it wrote: Claude Code sessions (tool_use / tool_result pairs
// in assistant and user lines) and Codex rollouts (function_call /
// function_call_output by call_id), hook decisions for the commands the hook
// rewrote, outputs cut the way each host cuts them, and malformed lines. What a
// test expects is computed from this account, not from rtk.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./corpus.js";

export type Kind = "typed" | "hook" | "missed" | "kept" | "no-route" | "unread";

/** One kind of command, with what rtk must make of it (written by hand). */
export interface Scenario {
  command: string;
  kind: Kind;
  /** missed: the route that would take it. */
  route?: string;
  /** kept: the reason id. */
  reason?: string;
  /** no-route: the tools (and subcommands) it counts for. */
  unrouted?: string[];
  /** The tool's output and exit code. */
  output: string;
  exit: number;
  /** The command's output is one routed tool's, with no expanding word: a replay runs this argv. */
  replay?: string[];
}

const fixture = (tool: string, c: string) => readFileSync(join(repoRoot, "test", "fixtures", "tools", tool, c, "stdout"), "utf8");

export function scenarios(): Record<string, Scenario> {
  const pytestFail = fixture("pytest", "fail-v");
  return {
    typedStatus: { command: "rtk git status", kind: "typed", output: "* main\nclean\n", exit: 0 },
    typedInChain: { command: "cd /srv && rtk pytest -q", kind: "typed", output: fixture("pytest", "fail-q"), exit: 1 },
    hookStatus: { command: "git status", kind: "hook", output: "On branch main\nnothing to commit, working tree clean", exit: 0 },
    hookCargo: { command: "cargo test", kind: "hook", output: fixture("cargo", "fail"), exit: 101 },
    missedPytest: { command: "pytest -v", kind: "missed", route: "pytest", output: pytestFail, exit: 1, replay: ["pytest", "-v"] },
    missedPytestCd: { command: "cd /srv/app && pytest -q", kind: "missed", route: "pytest", output: fixture("pytest", "fail-q"), exit: 1, replay: ["pytest", "-q"] },
    missedEslint: { command: "eslint src", kind: "missed", route: "eslint", output: fixture("eslint", "medium-warnings"), exit: 0, replay: ["eslint", "src"] },
    missedTsc: { command: "tsc --noEmit", kind: "missed", route: "tsc", output: fixture("tsc", "medium-errors"), exit: 2, replay: ["tsc", "--noEmit"] },
    missedShort: { command: "git status", kind: "missed", route: "git.status", output: "On branch main\nnothing to commit, working tree clean", exit: 0, replay: ["git", "status"] },
    missedChain: { command: "git status && git log -3", kind: "missed", route: "git.status", output: "On branch main\ncommit abc\n", exit: 0 },
    missedDynamic: { command: 'git log "$RANGE"', kind: "missed", route: "git.log", output: "commit abc\nAuthor: a\n", exit: 0 },
    keptPipe: { command: "git log | grep fix", kind: "kept", reason: "pipe-producer", output: "fix: a\n", exit: 0 },
    keptFile: { command: "git status > /tmp/status.txt", kind: "kept", reason: "stdout-to-file", output: "", exit: 0 },
    keptBackground: { command: "pytest -v &", kind: "kept", reason: "background", output: "[1] 4242\n", exit: 0 },
    noRoutePython: { command: "python3 script.py", kind: "no-route", unrouted: ["python3"], output: "done\n", exit: 0 },
    noRouteDocker: { command: "docker compose up -d", kind: "no-route", unrouted: ["docker compose"], output: "Started\n", exit: 0 },
    noRouteChain: { command: "cd infra && aws s3 mb s3://infra-scratch && gcloud config list", kind: "no-route", unrouted: ["aws s3", "gcloud config"], output: "No changes.\n", exit: 0 },
    noRouteBuiltin: { command: "echo hi", kind: "no-route", unrouted: [], output: "hi", exit: 0 },
    unread: { command: "if then (", kind: "unread", output: "bash: syntax error near unexpected token `then'", exit: 2 },
  };
}

export interface GeneratedCall {
  source: "claude" | "codex";
  project: string;
  session: string;
  id: string;
  time: number;
  scenario: Scenario;
  /** The output as the agent saw it (after the host's cut), or null when the result is missing. */
  shown: string | null;
  truncated: boolean;
  /** A hook decision with this id was written (whether it rewrote or not). */
  decision: "rewrite" | "pass" | null;
}

export interface Generated {
  calls: GeneratedCall[];
  files: { claude: number; codex: number };
  lines: number;
  malformed: number;
  /** Hook decisions written, and the spool's path. */
  decisions: number;
  spool: string;
  /** The decisions whose command is in no transcript: their time and project. */
  strayDecisions: { time: number; project: string }[];
  /** Each transcript written: its path, host, session, lines and malformed lines. */
  perFile: { path: string; source: "claude" | "codex"; session: string; lines: number; malformed: number }[];
}

/** Claude Code's form of an output over its limit: a preview and where the whole is. */
export function claudePersisted(output: string, id: string): string {
  return `<persisted-output>\nOutput too large (${(output.length / 1024).toFixed(1)}KB). Full output saved to: /home/u/.claude/projects/p/tool-results/${id}.txt\n\nPreview (first 2KB):\n${output.slice(0, 2000)}\n...\n</persisted-output>`;
}

/** Codex's cut of a long output: the middle lines replaced by a count. */
export function codexCut(output: string): string {
  const lines = output.split("\n");
  return [...lines.slice(0, 5), `[... omitted ${lines.length - 10} of ${lines.length} lines ...]`, ...lines.slice(-5)].join("\n");
}

const DAY = 86_400_000;
export const BASE_TIME = Date.UTC(2026, 10, 1, 9, 0, 0);

interface Writer {
  lines: string[];
  malformed: number;
}

/**
 * Writes the transcripts under `home` (.claude/projects/… and .codex/sessions/…)
 * and the hook decisions to `spool`.
 */
export function generate(home: string, spool: string): Generated {
  const s = scenarios();
  const calls: GeneratedCall[] = [];
  const decisions: string[] = [];
  let lines = 0;
  let malformed = 0;
  let seq = 0;
  const perFile: Generated["perFile"] = [];
  const nextId = (prefix: string) => `${prefix}${String(++seq).padStart(4, "0")}`;

  // Claude Code: two projects, three sessions over three days.
  const claudeSessions: {
    project: string;
    slug: string;
    session: string;
    day: number;
    plan: (keyof typeof s | { key: keyof typeof s; cut?: boolean; noResult?: boolean; decision?: "pass"; error?: string })[];
  }[] = [
    {
      project: "/home/u/app",
      slug: "-home-u-app",
      session: "a1",
      day: 0,
      plan: ["typedStatus", "hookStatus", "missedPytest", "missedPytest", "keptPipe", "noRoutePython", "unread", "missedEslint", { key: "missedShort", decision: "pass" }, "noRouteBuiltin"],
    },
    {
      project: "/home/u/app",
      slug: "-home-u-app",
      session: "a2",
      day: 1,
      plan: ["hookCargo", "missedPytestCd", { key: "missedTsc", cut: true }, "keptFile", "noRouteDocker", "missedChain", "missedDynamic", { key: "missedEslint", noResult: true }, "typedInChain"],
    },
    {
      project: "/home/u/lib",
      slug: "-home-u-lib",
      session: "b1",
      day: 2,
      plan: ["hookStatus", "missedTsc", "keptBackground", "noRouteChain", "noRoutePython", "missedShort"],
    },
  ];
  for (const cs of claudeSessions) {
    const w: Writer = { lines: [], malformed: 0 };
    const meta = (t: number) => ({ cwd: cs.project, sessionId: cs.session, timestamp: new Date(t).toISOString(), version: "2.1.6", gitBranch: "main", userType: "external", isSidechain: false });
    w.lines.push(JSON.stringify({ type: "user", ...meta(BASE_TIME + cs.day * DAY), uuid: `u-${cs.session}`, parentUuid: null, message: { role: "user", content: "fix the failing tests" } }));
    cs.plan.forEach((p, i) => {
      const step = typeof p === "string" ? { key: p } : p;
      const sc = s[step.key]!;
      const id = nextId("toolu_01");
      const t = BASE_TIME + cs.day * DAY + (i + 1) * 60_000;
      w.lines.push(
        JSON.stringify({
          type: "assistant",
          ...meta(t),
          message: {
            id: `msg_${id}`,
            type: "message",
            role: "assistant",
            model: "claude-opus",
            content: [
              { type: "text", text: "Running it." },
              { type: "tool_use", id, name: "Bash", input: { command: sc.command, description: "step" } },
            ],
          },
        }),
      );
      // A Read in between: not a shell command.
      if (i === 1)
        w.lines.push(
          JSON.stringify({ type: "assistant", ...meta(t), message: { role: "assistant", content: [{ type: "tool_use", id: nextId("toolu_02"), name: "Read", input: { file_path: "/x" } }] } }),
        );
      let shown: string | null = step.cut ? claudePersisted(sc.output, id) : sc.output;
      if (step.noResult) shown = null;
      if (shown !== null) {
        const content = sc.exit !== 0 ? `Exit code ${sc.exit}\n${shown}` : shown;
        // Results come as a string or as text items, both forms Claude Code writes.
        const c = i % 2 ? content : [{ type: "text", text: content }];
        w.lines.push(
          JSON.stringify({
            type: "user",
            ...meta(t + 1000),
            message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content: c, ...(sc.exit !== 0 ? { is_error: true } : {}) }] },
            toolUseResult: { stdout: sc.output, stderr: "", interrupted: false },
          }),
        );
      }
      let decision: GeneratedCall["decision"] = null;
      if (sc.kind === "hook") {
        decisions.push(JSON.stringify(hookLine(id, cs.project, t, sc.command, "rtk " + sc.command, "rewrite-allow")));
        decision = "rewrite";
      } else if (step.decision === "pass") {
        decisions.push(JSON.stringify(hookLine(id, cs.project, t, sc.command, null, "pass")));
        decision = "pass";
      }
      calls.push({ source: "claude", project: cs.project, session: cs.session, id, time: t, scenario: sc, shown, truncated: step.cut === true, decision });
      if (i === 3) {
        // A line torn by a crash, and one that is JSON but no object.
        w.lines.push('{"type":"assistant","message":{"content":[{"type":"tool_u');
        w.lines.push("[1,2,3]");
        w.malformed += 2;
      }
    });
    const dir = join(home, ".claude", "projects", cs.slug);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${cs.session}.jsonl`), w.lines.join("\n") + "\n");
    perFile.push({ path: join(dir, `${cs.session}.jsonl`), source: "claude", session: cs.session, lines: w.lines.length, malformed: w.malformed });
    lines += w.lines.length;
    malformed += w.malformed;
  }

  // Codex: one rollout with the older `shell` call (argv, JSON output), one with exec_command (text output).
  const codexRuns: { project: string; session: string; day: number; style: "shell" | "exec"; plan: (keyof typeof s | { key: keyof typeof s; cut?: boolean })[] }[] = [
    { project: "/home/u/svc", session: "c-0001", day: 1, style: "shell", plan: ["missedPytest", "hookStatus", "keptPipe", "noRouteDocker", "typedStatus"] },
    { project: "/home/u/svc", session: "c-0002", day: 2, style: "exec", plan: ["missedEslint", { key: "missedTsc", cut: true }, "noRoutePython", "unread"] },
  ];
  for (const cr of codexRuns) {
    const w: Writer = { lines: [], malformed: 0 };
    const t0 = BASE_TIME + cr.day * DAY;
    const ts = (t: number) => new Date(t).toISOString();
    w.lines.push(JSON.stringify({ timestamp: ts(t0), type: "session_meta", payload: { id: cr.session, timestamp: ts(t0), cwd: cr.project, originator: "codex_cli_rs", cli_version: "0.46.0" } }));
    w.lines.push(JSON.stringify({ timestamp: ts(t0), type: "turn_context", payload: { cwd: cr.project, approval_policy: "on-request", model: "gpt-5-codex" } }));
    cr.plan.forEach((p, i) => {
      const step = typeof p === "string" ? { key: p } : p;
      const sc = s[step.key]!;
      const id = nextId("call_");
      const t = t0 + (i + 1) * 60_000;
      const args = cr.style === "shell" ? { command: ["bash", "-lc", sc.command], workdir: cr.project, timeout_ms: 120000 } : { cmd: sc.command, workdir: cr.project, yield_time_ms: 1000 };
      w.lines.push(
        JSON.stringify({
          timestamp: ts(t),
          type: "response_item",
          payload: { type: "function_call", name: cr.style === "shell" ? "shell" : "exec_command", arguments: JSON.stringify(args), call_id: id },
        }),
      );
      w.lines.push(JSON.stringify({ timestamp: ts(t), type: "event_msg", payload: { type: "exec_command_begin", call_id: id } }));
      const shown = step.cut ? codexCut(sc.output) : sc.output;
      const output =
        cr.style === "shell"
          ? JSON.stringify({ output: shown, metadata: { exit_code: sc.exit, duration_seconds: 0.4 } })
          : `Chunk ID: 4f2a\nWall time: 0.4120 seconds\nProcess exited with code ${sc.exit}\nOriginal token count: 99\nOutput:\n${shown}`;
      w.lines.push(JSON.stringify({ timestamp: ts(t + 1000), type: "response_item", payload: { type: "function_call_output", call_id: id, output } }));
      let decision: GeneratedCall["decision"] = null;
      if (sc.kind === "hook") {
        decisions.push(JSON.stringify({ ...hookLine(id, cr.project, t, sc.command, "rtk " + sc.command, "rewrite-allow"), host: "codex" }));
        decision = "rewrite";
      }
      calls.push({ source: "codex", project: cr.project, session: cr.session, id, time: t, scenario: sc, shown, truncated: step.cut === true, decision });
    });
    w.lines.push("not json at all");
    w.malformed++;
    const d = new Date(t0);
    const dir = join(home, ".codex", "sessions", String(d.getUTCFullYear()), String(d.getUTCMonth() + 1).padStart(2, "0"), String(d.getUTCDate()).padStart(2, "0"));
    mkdirSync(dir, { recursive: true });
    const file = join(dir, `rollout-${ts(t0).slice(0, 19).replace(/:/g, "-")}-${cr.session}.jsonl`);
    writeFileSync(file, w.lines.join("\n") + "\n");
    perFile.push({ path: file, source: "codex", session: cr.session, lines: w.lines.length, malformed: w.malformed });
    lines += w.lines.length;
    malformed += w.malformed;
  }

  // Decisions of sessions whose transcripts are gone, one without an id, and a torn line.
  const strayDecisions = [
    { time: BASE_TIME - DAY, project: "/home/u/old" },
    { time: BASE_TIME, project: "/home/u/app" },
  ];
  decisions.push(JSON.stringify(hookLine("toolu_gone", strayDecisions[0]!.project, strayDecisions[0]!.time, "ls", "rtk ls", "rewrite-allow")));
  decisions.push(JSON.stringify(hookLine(null, strayDecisions[1]!.project, strayDecisions[1]!.time, "git diff", "rtk git diff", "rewrite-allow")));
  const written = decisions.length;
  decisions.push('{"kind":"hook","time":');
  mkdirSync(join(spool, ".."), { recursive: true });
  writeFileSync(spool, decisions.join("\n") + "\n");
  return { calls, files: { claude: claudeSessions.length, codex: codexRuns.length }, lines, malformed, decisions: written, spool, strayDecisions, perFile };
}

function hookLine(toolUseId: string | null, project: string, time: number, command: string, rewritten: string | null, verdict: string) {
  return { kind: "hook", time, host: "claude", session: "s", toolUseId, project, command, rewritten, verdict, reasons: rewritten ? [] : ["no-route"] };
}
