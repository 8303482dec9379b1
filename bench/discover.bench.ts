// rtk discover over a generated corpus of Claude Code sessions (the scenarios of
// the discover tests, each call with its own id): transcript throughput and peak
// memory of the whole process, with and without --replay, and a check that
// every command was counted.
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, statSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { root, scale, type Bench } from "./harness/context.js";
import { runMeasured } from "./harness/peak-rss.js";
import { duration, sig } from "./harness/report.js";
import { scenarios } from "../test/support/transcripts.js";

const launcher = join(root, "bin/rtk");

/** Writes `sessions` transcripts of `calls` Bash calls each; returns the bytes written. */
function corpus(dir: string, sessions: number, calls: number): number {
  const kinds = Object.values(scenarios());
  let bytes = 0;
  for (let s = 0; s < sessions; s++) {
    const project = join(dir, "projects", `-home-u-p${s % 7}`);
    mkdirSync(project, { recursive: true });
    const path = join(project, `session-${s}.jsonl`);
    const fd = openSync(path, "w");
    for (let i = 0; i < calls; i++) {
      const sc = kinds[(s * 31 + i) % kinds.length]!;
      const id = `toolu_${s}_${i}`;
      const meta = { cwd: `/home/u/p${s % 7}`, sessionId: `s${s}`, timestamp: new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString() };
      writeSync(fd, JSON.stringify({ type: "assistant", ...meta, message: { role: "assistant", content: [{ type: "tool_use", id, name: "Bash", input: { command: sc.command } }] } }) + "\n");
      const content = sc.exit ? `Exit code ${sc.exit}\n${sc.output}` : sc.output;
      writeSync(fd, JSON.stringify({ type: "user", ...meta, message: { role: "user", content: [{ type: "tool_result", tool_use_id: id, content, ...(sc.exit ? { is_error: true } : {}) }] } }) + "\n");
    }
    closeSync(fd);
    bytes += statSync(path).size;
  }
  return bytes;
}

const bench: Bench = async (ctx) => {
  await ctx.report.section("rtk discover: transcript throughput and peak memory (whole process)", ["run", "commands", "transcripts", "wall", "MB/s", "peak RSS"], async (area) => {
    const dir = mkdtempSync(join(tmpdir(), "rtk-bench-discover-"));
    try {
      const sessions = scale(ctx, { full: 100, ci: 20 });
      const calls = 200;
      const bytes = corpus(join(dir, "claude"), sessions, calls);
      const env = {
        PATH: process.env["PATH"] ?? "/usr/bin:/bin",
        HOME: join(dir, "home"),
        XDG_DATA_HOME: join(dir, "data"),
        XDG_CONFIG_HOME: join(dir, "config"),
        CLAUDE_CONFIG_DIR: join(dir, "claude"),
      };
      for (const args of [["--json"], ["--json", "--replay"]]) {
        const out = join(dir, "out.json");
        const run = await runMeasured({ argv: [launcher, "discover", ...args], cwd: dir, env, stdoutPath: out, scratch: join(dir, "time.txt") });
        const label = `rtk discover ${args.join(" ")}`;
        let counted = -1;
        try {
          counted = (JSON.parse(readFileSync(out, "utf8")) as { totals: { commands: number } }).totals.commands;
        } catch {
          area.note(`${label}: exit ${run.status}: ${run.stderr.trim().slice(0, 300)}`);
        }
        const mbps = bytes / 2 ** 20 / (run.wallUs / 1e6);
        const rssMb = run.peakRssBytes / 2 ** 20;
        area.row(
          [label, `${counted}`, `${sig(bytes / 2 ** 20)} MB`, duration(run.wallUs), sig(mbps), `${sig(rssMb)} MB`],
          area.check(`${label}: every command counted`, counted, "", { equals: sessions * calls }, "correctness"),
        );
        area.figure(label, { commands: counted, bytes, wallUs: run.wallUs, mbPerSecond: mbps, peakRssBytes: run.peakRssBytes });
      }
      area.note(`${sessions} sessions × ${calls} Bash calls, the discover tests' scenarios in turn (fixture outputs of pytest, tsc, eslint, cargo); no target yet`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
};

export default bench;
