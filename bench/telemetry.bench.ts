// Telemetry (docs/telemetry.md): what turning the OTLP export on costs a run when
// the collector cannot be reached (whole processes alternated, on vs off: the
// ratio of medians), and `rtk gain --export otlp` of a store of 100,000 records
// to a collector on 127.0.0.1: its wall time and peak resident memory.
import { spawn } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { features } from "../src/accounting/features.js";
import type { HookRecord, RunRecord } from "../src/accounting/types.js";
import { runTimed, type Command } from "./harness/alternate.js";
import { root, scale, type Bench } from "./harness/context.js";
import { runMeasured } from "./harness/peak-rss.js";
import { duration } from "./harness/report.js";
import { summarize } from "./harness/stats.js";

const RTK = join(root, "bin", "rtk");

const bench: Bench = async (ctx) => {
  const tmp = mkdtempSync(join(tmpdir(), "rtk-otel-bench-"));
  const env = (name: string, extra: Record<string, string> = {}, config = "") => {
    const dirs = { HOME: join(tmp, name, "home"), XDG_DATA_HOME: join(tmp, name, "data"), XDG_CONFIG_HOME: join(tmp, name, "config") };
    for (const d of Object.values(dirs)) mkdirSync(d, { recursive: true });
    mkdirSync(join(dirs.XDG_CONFIG_HOME, "rtk"), { recursive: true });
    writeFileSync(join(dirs.XDG_CONFIG_HOME, "rtk", "config.toml"), config);
    return { ...process.env, ...dirs, ...extra };
  };
  const cwd = join(tmp, "cwd");
  mkdirSync(cwd);
  for (let i = 0; i < 20; i++) writeFileSync(join(cwd, `file-${i}.txt`), "x\n");
  try {
    await ctx.report.section(
      "the run path with telemetry on, the collector unreachable (127.0.0.1:9), against telemetry off",
      ["case", "on (median)", "off (median)", "ratio on/off", "exports started"],
      (area) => {
        const rounds = scale(ctx, { full: 40, ci: 12 });
        const unreachable = { RTK_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" };
        const cases: [string, NodeJS.ProcessEnv, boolean][] = [
          ["default interval (60 s): the stamp is read, no export due", env("on-default", unreachable), false],
          ["every run due: each starts a detached export", env("on-every", unreachable, "[telemetry]\ninterval_seconds = 1\n"), true],
        ];
        const off = env("off", { OTEL_EXPORTER_OTLP_ENDPOINT: "http://127.0.0.1:9" });
        for (const [name, onEnv, everyRun] of cases) {
          const a: Command = { label: "rtk ls (telemetry on)", argv: [RTK, "ls", "-la"], cwd, env: onEnv };
          const b: Command = { label: "rtk ls (telemetry off)", argv: [RTK, "ls", "-la"], cwd, env: off };
          const stamp = join(String(onEnv["XDG_DATA_HOME"]), "rtk", "telemetry", "next-export");
          for (let i = 0; i < 3; i++) (runTimed(a), runTimed(b));
          const ta: number[] = [];
          const tb: number[] = [];
          let started = 0;
          for (let i = 0; i < rounds; i++) {
            if (everyRun) {
              rmSync(stamp, { force: true });
              started++;
            }
            if (i % 2) {
              ta.push(runTimed(a));
              tb.push(runTimed(b));
            } else {
              tb.push(runTimed(b));
              ta.push(runTimed(a));
            }
          }
          const sa = summarize(ta);
          const sb = summarize(tb);
          const ratio = sa.median / sb.median;
          area.row([name, duration(sa.median), duration(sb.median), ratio.toFixed(3), everyRun ? `${started} of ${rounds}` : "0 (one before the rounds)"]);
          area.figure(name, { on: sa, off: sb, ratio });
        }
        area.note(
          "whole processes alternated on vs off (which goes first alternates); the figure is the ratio of medians, informative on a shared machine; the export itself runs detached and is never waited for",
        );
      },
    );

    const n = scale(ctx, { full: 100_000, ci: 20_000 });
    await ctx.report.section(`rtk gain --export otlp over ${n.toLocaleString("en-US")} records to a collector on 127.0.0.1`, ["step", "wall", "peak RSS", "batches"], async (area) => {
      const server = await startCollector(tmp);
      try {
        for (const protocol of ["http/protobuf", "http/json"]) {
          const e = env(`export-${protocol.replace("/", "-")}`, { RTK_TELEMETRY: "1", OTEL_EXPORTER_OTLP_ENDPOINT: server.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol });
          mkdirSync(join(String(e["XDG_DATA_HOME"]), "rtk"), { recursive: true, mode: 0o700 });
          writeFileSync(join(String(e["XDG_DATA_HOME"]), "rtk", "spool.jsonl"), spool(n));
          // Ingested first: the figure is the export's, not the ingestion's (bench/accounting.bench.ts measures that).
          runTimed({ label: "rtk gain (ingests)", argv: [RTK, "gain"], cwd, env: e });
          const m = await runMeasured({ argv: [RTK, "gain", "--export", "otlp"], cwd, env: e, stdoutPath: join(tmp, "export.out"), scratch: join(tmp, "time.txt") });
          if (m.status !== 0) throw new Error(`rtk gain --export otlp exited ${m.status}: ${m.stderr.slice(0, 400)}`);
          const mb = m.peakRssBytes / 1024 / 1024;
          const check = area.check(`${protocol}: peak RSS exporting ${n} records`, mb, "MB", { max: 150 }, "correctness");
          area.row(
            [`${protocol}: export ${n.toLocaleString("en-US")} records (5,000 a batch)`, duration(m.wallUs), `${mb.toFixed(0)} MB (${m.method})`, String(Math.ceil(n / 5000)), "≤ 150 MB"],
            check,
          );
          area.figure(`${protocol} export`, { wallUs: m.wallUs, peakRssMb: mb, requests: server.requests(), bytes: server.bytes() });
        }
        area.note(`records: ${n.toLocaleString("en-US")} over 80 days, 40 routes, 6 projects, a tenth of them hook decisions; the collector (a child process) answers 200 to each request`);
      } finally {
        server.stop();
      }
    });
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
};

/** A collector in its own process (the bench's runs are synchronous): answers 200, counts requests and bytes. */
async function startCollector(tmp: string): Promise<{ url: string; requests(): number; bytes(): number; stop(): void }> {
  const script = join(tmp, "collector.cjs");
  writeFileSync(
    script,
    `const http = require("node:http");
let requests = 0, bytes = 0;
const s = http.createServer((req, res) => { req.on("data", (b) => (bytes += b.length)); req.on("end", () => { requests++; res.writeHead(200).end(); process.stdout.write("R " + requests + " " + bytes + "\\n"); }); });
s.listen(0, "127.0.0.1", () => process.stdout.write("PORT " + s.address().port + "\\n"));`,
  );
  const child = spawn(process.execPath, [script], { stdio: ["ignore", "pipe", "inherit"] });
  let requests = 0;
  let bytes = 0;
  const lines = createInterface({ input: child.stdout! });
  const port = await new Promise<number>((resolve) =>
    lines.on("line", (l) => {
      const [kind, a, b] = l.split(" ");
      if (kind === "PORT") resolve(Number(a));
      else ((requests = Number(a)), (bytes = Number(b)));
    }),
  );
  return { url: `http://127.0.0.1:${port}`, requests: () => requests, bytes: () => bytes, stop: () => void child.kill() };
}

/** n spool lines: runs on 40 routes in 6 projects over 80 days, a tenth hook decisions. */
function spool(n: number): string {
  const now = Date.now();
  const raw = features("On branch main\nChanges not staged for commit:\n  modified:   src/a.ts\n".repeat(20));
  const out = features("* main\n~ modified (1): src/a.ts\n");
  const lines: string[] = [];
  for (let i = 0; i < n; i++) {
    const time = now - Math.floor(((n - i) / n) * 80 * 86_400_000);
    const project = `/work/p${i % 6}`;
    if (i % 10 === 9) {
      const h: HookRecord = {
        kind: "hook",
        time,
        host: i % 20 === 9 ? "claude" : "codex",
        session: `s${i % 97}`,
        toolUseId: `t${i}`,
        project,
        command: "git status",
        rewritten: i % 30 === 9 ? null : "rtk git status",
        verdict: i % 30 === 9 ? "pass" : "rewrite-allow",
        reasons: [i % 30 === 9 ? "pipeline-into" : "routed"],
        durationMs: 0.5 + (i % 7) / 10,
      };
      lines.push(JSON.stringify(h));
      continue;
    }
    const r: RunRecord = {
      kind: "run",
      time,
      project,
      route: i % 50 === 0 ? "recall" : `route${i % 40}`,
      command: `git status ${i}`,
      exitCode: i % 13 === 0 ? 1 : 0,
      durationMs: 5 + (i % 300),
      rawBytes: raw[0]!,
      outBytes: out[0]!,
      fellBack: i % 17 === 0,
      omitted: i % 5,
      recallId: i % 5 ? `r${i}` : null,
      rawFeatures: raw,
      outFeatures: out,
    };
    lines.push(JSON.stringify(r));
  }
  return lines.join("\n") + "\n";
}

export default bench;
