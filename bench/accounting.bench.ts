// The accounting (spec/tracking.md): what recording costs a run and a hook
// (the recording step in process, and rtk with tracking vs RTK_NO_TRACK=1 as
// whole processes), the token estimate's error against exact o200k counts, and
// `rtk gain` over 100,000 records per Node and driver: the first report (which
// ingests the spool) and reports on the ingested store.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { features } from "../src/accounting/features.js";
import { maskCommand } from "../src/accounting/mask.js";
import { recordHook } from "../src/accounting/record.js";
import { appendRecord, projectOf } from "../src/accounting/spool.js";
import { estimateTokens } from "../src/accounting/tokens.js";
import type { HookRecord, RunRecord } from "../src/accounting/types.js";
import { shellQuote } from "../src/text/quote.js";
import { loadConfig } from "../src/config/load.js";
import type { Outcome } from "../src/rewrite/outcome.js";
import { alternate, runTimed, type Command } from "./harness/alternate.js";
import { root, scale, type Bench } from "./harness/context.js";
import { duration, sig } from "./harness/report.js";
import { percentile, summarize } from "./harness/stats.js";
import { tokenCorpus } from "./harness/token-corpus.js";

const RTK = join(root, "bin", "rtk");

const bench: Bench = async (ctx) => {
  const tmp = mkdtempSync(join(tmpdir(), "rtk-acct-bench-"));
  const env = (extra: Record<string, string> = {}) => ({ ...process.env, HOME: join(tmp, "home"), XDG_DATA_HOME: join(tmp, "data"), XDG_CONFIG_HOME: join(tmp, "config"), ...extra });
  try {
    await ctx.report.section("recording overhead: what recording adds to a run and to a hook decision", ["command", "how measured", "tracked", "untracked", "overhead", "target"], (area) => {
      // The cost of the recording step itself, in this process: what the 1 ms is about,
      // and steady where a difference of two whole processes is not.
      const out = spawnSync("git", ["status"], { cwd: root, encoding: "utf8" }).stdout;
      const spoolEnv = env({ XDG_DATA_HOME: join(tmp, "inproc") });
      const argv = ["git", "status", "--short"];
      const runStep = () => {
        const rec: RunRecord = {
          kind: "run",
          time: Date.now(),
          project: projectOf(root),
          route: "git.status",
          command: maskCommand(shellQuote(argv)),
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
      };
      const outcome: Outcome = { kind: "rewrite", command: "rtk git status", allow: true, ask: false };
      // The hook hands over the config its rewrite read.
      const config = loadConfig(spoolEnv, root);
      const hookStep = () => recordHook(spoolEnv, { host: "claude", command: "git status", cwd: root, outcome, result: null, event: { session_id: "b", tool_use_id: "t" }, config });
      const n = scale(ctx, { full: 2000, ci: 400 });
      for (const [name, step] of [
        ["rtk git status: features + record + one spool write", runStep],
        ["rtk hook claude: record + one spool write", hookStep],
      ] as const) {
        const times: number[] = [];
        for (let i = 0; i < n; i++) {
          const t0 = performance.now();
          step();
          times.push((performance.now() - t0) * 1000);
        }
        const st = summarize(times.slice(Math.floor(n / 10)));
        const check = area.check(`${name}: in-process median`, st.median / 1000, "ms", { max: 1 });
        area.row([name, `in process, median of ${n} (p99 ${duration(st.p99)})`, "", "", duration(st.median), "≤ 1 ms"], check);
        area.figure(`${name} in process`, st);
      }

      // Whole processes, alternated: the median of the paired differences (each tracked run
      // against the untracked one beside it), informative only on a shared machine.
      const rounds = scale(ctx, { full: 60, ci: 16 });
      const event = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "git status" }, cwd: root, session_id: "b", tool_use_id: "t" });
      const cases: [string, Command][] = [
        ["rtk git status (this checkout)", { label: "rtk git status", argv: [RTK, "git", "status"], cwd: root }],
        ["rtk hook claude", { label: "rtk hook claude", argv: [RTK, "hook", "claude"], cwd: root, input: event }],
      ];
      for (const [name, cmd] of cases) {
        const a = { ...cmd, env: env() };
        const b = { ...cmd, env: env({ RTK_NO_TRACK: "1" }) };
        for (let i = 0; i < 3; i++) (runTimed(a), runTimed(b));
        const ta: number[] = [];
        const tb: number[] = [];
        for (let i = 0; i < rounds; i++) {
          // Which goes first alternates too, so neither always follows the other.
          if (i % 2) {
            ta.push(runTimed(a));
            tb.push(runTimed(b));
          } else {
            tb.push(runTimed(b));
            ta.push(runTimed(a));
          }
        }
        const paired = ta.map((t, i) => t - tb[i]!).sort((x, y) => x - y);
        const diffs = summarize(paired);
        area.row([
          name,
          `whole process, median of ${rounds} paired differences`,
          duration(summarize(ta).median),
          duration(summarize(tb).median),
          `${sig(diffs.median / 1000)} ms (p25 ${sig(percentile(paired, 0.25) / 1000)}, p75 ${sig(percentile(paired, 0.75) / 1000)})`,
          "informative",
        ]);
        area.figure(name, { tracked: summarize(ta), untracked: summarize(tb), difference: diffs });
      }
      area.note("the verdict is the in-process cost of the recording step (the same code the run and hook paths call); the whole-process difference is within a loaded machine's noise");
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

    // Node 20 has no node:sqlite (the WebAssembly driver); Node 24 (RTK_BENCH_NODES) runs both (CI: its default). Each Node runs
    // dist/rtk.cjs itself: the checkout's launcher would run the Node its snapshots were built with.
    const nodes = [process.execPath, ...(process.env["RTK_BENCH_NODES"] ?? "").split(":").filter((n) => n && existsSync(n))];
    const drivers: [string, string, Record<string, string>][] = [];
    for (const node of nodes) {
      const v = spawnSync(node, ["--version"], { encoding: "utf8" }).stdout.trim();
      drivers.push([`${v} default driver`, node, {}]);
      if (!ctx.ci && Number(/^v(\d+)/.exec(v)?.[1]) >= 22) drivers.push([`${v} wasm`, node, { RTK_SQLITE_DRIVER: "wasm" }]);
    }
    const cli = join(root, "dist", "rtk.cjs");
    const n = scale(ctx, { full: 100_000, ci: 20_000 });
    await ctx.report.section(`rtk gain over ${n.toLocaleString("en-US")} records, per Node and driver`, ["node, driver", "step", "median", "CPU (user + sys)", "target"], (area) => {
      const lines = spool(n);
      for (const [name, node, extra] of drivers) {
        const data = join(tmp, `gain-${drivers.findIndex((d) => d[0] === name)}`);
        mkdirSync(join(data, "rtk"), { recursive: true, mode: 0o700 });
        const e = env({ XDG_DATA_HOME: data, ...extra });
        const driver = () => JSON.parse(spawnSync(node, [cli, "gain", "--json"], { env: e, encoding: "utf8" }).stdout).driver as string;
        // The first report after n spool lines: ingestion (one transaction) and the report.
        const first: number[] = [];
        const firstCpu: number[] = [];
        for (let i = 0; i < scale(ctx, { full: 2, ci: 1 }); i++) {
          rmSync(join(data, "rtk"), { recursive: true, force: true });
          mkdirSync(join(data, "rtk"), { recursive: true, mode: 0o700 });
          writeFileSync(join(data, "rtk", "spool.jsonl"), lines);
          const cpu0 = childCpuMs();
          first.push(runTimed({ label: "first rtk gain (ingests)", argv: [node, cli, "gain"], env: e }));
          firstCpu.push(childCpuMs() - cpu0);
        }
        const label = `${name} (${driver()})`;
        area.row([label, `first rtk gain: ingest ${n.toLocaleString("en-US")} spool lines + report`, duration(summarize(first).median), cpuCell(firstCpu), ""]);
        // Reports on the store as it then is: the figure.
        for (const args of [["gain"], ["gain", "--daily", "--graph"], ["gain", "--history", "50"], ["gain", "--html", join(data, "gain.html")]]) {
          const times: number[] = [];
          const cpu: number[] = [];
          for (let i = 0; i < scale(ctx, { full: 7, ci: 3 }); i++) {
            const cpu0 = childCpuMs();
            times.push(runTimed({ label: args.join(" "), argv: [node, cli, ...args], env: e }));
            cpu.push(childCpuMs() - cpu0);
          }
          const st = summarize(times);
          const shown = args[1] === "--html" ? "gain --html FILE" : args.join(" ");
          const check = area.check(`${label}: rtk ${shown} over ${n} records`, st.median / 1e6, "s", { max: 1 });
          area.row([label, `rtk ${shown} (store ingested)`, duration(st.median), cpuCell(cpu), "≤ 1 s"], check);
          area.figure(`${label}: rtk ${shown}`, { wall: st, cpuMs: summarize(cpu) });
        }
      }
      area.note(`${n.toLocaleString("en-US")} records over 80 days, 40 routes, 6 projects, a tenth of them hook decisions; Node binaries: this one and RTK_BENCH_NODES`);
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
};

/**
 * CPU time (user + system, ms) of the children this process has waited for, from
 * /proc (Linux; 10 ms ticks): on a loaded machine, what a report costs when the wall time cannot say.
 */
function childCpuMs(): number {
  try {
    const f = readFileSync("/proc/self/stat", "utf8").split(") ")[1]!.split(" ");
    // Fields 16 and 17 of the file (cutime, cstime), counted after the command name.
    return ((Number(f[13]) + Number(f[14])) * 1000) / 100;
  } catch {
    return NaN;
  }
}

function cpuCell(ms: number[]): string {
  const m = summarize(ms).median;
  return Number.isNaN(m) ? "" : `${Math.round(m)} ms`;
}

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
