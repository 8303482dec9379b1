// The accounting (spec/tracking.md): what recording costs a run and a hook
// (rtk with tracking vs RTK_NO_TRACK=1, alternated), the token estimate's error
// against exact o200k counts, the store's driver on 10,000 records, and
// `rtk gain` over 100,000 records.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { features } from "../src/accounting/features.js";
import { appendRecord } from "../src/accounting/spool.js";
import { estimateTokens } from "../src/accounting/tokens.js";
import type { HookRecord, RunRecord } from "../src/accounting/types.js";
import { alternate, runTimed, type Command } from "./harness/alternate.js";
import { root, scale, type Bench } from "./harness/context.js";
import { duration, sig } from "./harness/report.js";
import { summarize } from "./harness/stats.js";
import { tokenCorpus } from "./harness/token-corpus.js";

const RTK = join(root, "bin", "rtk");

const bench: Bench = async (ctx) => {
  const tmp = mkdtempSync(join(tmpdir(), "rtk-acct-bench-"));
  const env = (extra: Record<string, string> = {}) => ({ ...process.env, HOME: join(tmp, "home"), XDG_DATA_HOME: join(tmp, "data"), XDG_CONFIG_HOME: join(tmp, "config"), ...extra });
  try {
    await ctx.report.section("recording overhead: tracked vs RTK_NO_TRACK=1 (whole process, alternated)", ["command", "tracked", "untracked", "difference", "target"], (area) => {
      const rounds = scale(ctx, { full: 40, ci: 12 });
      const event = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git status" }, cwd: root, session_id: "b", tool_use_id: "t" });
      const cases: [string, Command][] = [
        ["rtk git status (this checkout)", { label: "rtk git status", argv: [RTK, "git", "status"], cwd: root }],
        ["rtk hook claude", { label: "rtk hook claude", argv: [RTK, "hook", "claude"], cwd: root, input: event }],
      ];
      for (const [name, cmd] of cases) {
        const r = alternate({ ...cmd, env: env() }, { ...cmd, env: env({ RTK_NO_TRACK: "1" }) }, { warmupRounds: 3, rounds });
        const diff = (r.a.median - r.b.median) / 1000;
        const check = area.check(`${name}: median difference`, diff, "ms", { max: 1 });
        area.row([name, duration(r.a.median), duration(r.b.median), `${sig(diff)} ms`, "≤ 1 ms"], check);
        area.figure(name, { tracked: r.a, untracked: r.b });
      }
      // The in-process cost, steadier than a difference of two process starts.
      const out = spawnSync("git", ["status"], { cwd: root, encoding: "utf8" }).stdout;
      const spoolEnv = env({ XDG_DATA_HOME: join(tmp, "inproc") });
      const times: number[] = [];
      for (let i = 0; i < 2000; i++) {
        const t0 = performance.now();
        const rec: RunRecord = {
          kind: "run",
          time: Date.now(),
          project: root,
          route: "git.status",
          command: "git status",
          exitCode: 0,
          durationMs: 9,
          rawBytes: out.length,
          outBytes: 80,
          fellBack: false,
          omitted: 0,
          recallId: null,
          rawFeatures: features(out),
          outFeatures: features(out.slice(0, 80)),
        };
        appendRecord(rec, spoolEnv);
        times.push((performance.now() - t0) * 1000);
      }
      const s = summarize(times.slice(200));
      area.row(["in process: features + one spool write", duration(s.median), "", `p99 ${duration(s.p99)}`, ""]);
      area.note(`${rounds} rounds each, alternated after 3 untimed; the difference of medians of whole processes is within the noise of a shared machine`);
    });

    await ctx.report.section(
      "token estimate vs exact o200k (all tool fixtures, git and file outputs)",
      ["texts", "exact tokens", "estimated", "aggregate error", "worst text", "bytes/4 error"],
      (area) => {
        const corpus = tokenCorpus();
        let exact = 0;
        let est = 0;
        let quarter = 0;
        let worst = { name: "", err: 0, exact: 0 };
        const errs: number[] = [];
        for (const t of corpus) {
          const e = countTokens(t.text);
          const f = features(t.text);
          const x = estimateTokens(f, f[0]!);
          exact += e;
          est += x;
          quarter += f[0]! / 4;
          const err = Math.abs(x - e) / Math.max(1, e);
          errs.push(err * 100);
          if (err > worst.err) worst = { name: t.name, err, exact: e };
        }
        const agg = ((est - exact) / exact) * 100;
        const check = area.check("aggregate error", Math.abs(agg), "%", { max: 2 }, "correctness");
        area.row(
          [corpus.length, exact, est, `${agg.toFixed(2)}%`, `${(worst.err * 100).toFixed(1)}% (${worst.name}, ${worst.exact} tokens)`, `${(((quarter - exact) / exact) * 100).toFixed(1)}%`],
          check,
        );
        const med = summarize(errs);
        area.note(`per-text error: median ${med.median.toFixed(1)}%, max ${med.max.toFixed(1)}%`);
        area.figure("aggregateErrorPct", agg);
        area.figure("worst", worst);
      },
    );

    await ctx.report.section("store: ingest and report (this Node's driver)", ["step", "time", "target"], (area) => {
      const n = scale(ctx, { full: 100_000, ci: 20_000 });
      const data = join(tmp, "gain");
      mkdirSync(join(data, "rtk"), { recursive: true, mode: 0o700 });
      writeFileSync(join(data, "rtk", "spool.jsonl"), spool(n));
      const e = env({ XDG_DATA_HOME: data });
      const ingest = runTimed({ label: "first rtk gain (ingests)", argv: [RTK, "gain"], env: e });
      area.row([`first rtk gain: ingest ${n.toLocaleString("en-US")} records`, duration(ingest), ""]);
      const driver = JSON.parse(spawnSync(RTK, ["gain", "--json"], { env: e, encoding: "utf8" }).stdout).driver as string;
      for (const args of [["gain"], ["gain", "--daily", "--graph"], ["gain", "--history", "50"]]) {
        const times = Array.from({ length: scale(ctx, { full: 7, ci: 3 }) }, () => runTimed({ label: args.join(" "), argv: [RTK, ...args], env: e }));
        const s = summarize(times);
        const check = area.check(`rtk ${args.join(" ")} over ${n} records`, s.median / 1e6, "s", { max: 1 });
        area.row([`rtk ${args.join(" ")} (median)`, duration(s.median), "≤ 1 s"], check);
      }
      area.note(`driver: ${driver}; ${n.toLocaleString("en-US")} records over 80 days, 40 routes, 6 projects`);
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
};

/** n spool lines: runs over 80 days with hook decisions among them. */
function spool(n: number): string {
  const now = Date.now();
  const lines: string[] = [];
  const feats = features("On branch main\nChanges not staged for commit:\n  modified:   src/a.ts\n".repeat(20));
  const small = features("* main\n~ modified (1): src/a.ts\n");
  for (let i = 0; i < n; i++) {
    const time = now - Math.floor((i / n) * 80 * 86_400_000);
    if (i % 10 === 9) {
      const h: HookRecord = {
        kind: "hook",
        time,
        host: "claude",
        session: `s${i % 97}`,
        toolUseId: `t${i}`,
        project: `/work/p${i % 6}`,
        command: "git status",
        rewritten: "rtk git status",
        verdict: "rewrite-allow",
        reasons: ["routed"],
      };
      lines.push(JSON.stringify(h));
      continue;
    }
    const r: RunRecord = {
      kind: "run",
      time,
      project: `/work/p${i % 6}`,
      route: i % 50 === 0 ? "recall" : `route${i % 40}`,
      command: `git status ${i}`,
      exitCode: i % 13 === 0 ? 1 : 0,
      durationMs: 12,
      rawBytes: feats[0]!,
      outBytes: small[0]!,
      fellBack: i % 17 === 0,
      omitted: i % 5,
      recallId: i % 5 ? `r${i}` : null,
      rawFeatures: feats,
      outFeatures: small,
    };
    lines.push(JSON.stringify(r));
  }
  return lines.join("\n") + "\n";
}

export default bench;
