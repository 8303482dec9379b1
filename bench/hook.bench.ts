// The hot path: the in-process rewrite per agent command, and the whole
// process of `rtk rewrite` and `rtk hook claude` (started through the launcher,
// as hosts run it) against a bare Node start, alternated; then the hook under
// pathological input, which must stay within a fixed time and memory budget.
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { roundRobin, type Command } from "./harness/alternate.js";
import { PATHOLOGICAL as PATHOLOGICAL_GATES, STARTUP } from "./gates.js";
import { loadBuiltLib, root, scale, type Bench } from "./harness/context.js";
import { measure, measureEach } from "./harness/measure.js";
import { runMeasured } from "./harness/peak-rss.js";
import { duration, sig, type Area } from "./harness/report.js";
import { summarize } from "./harness/stats.js";
import { agentCommandsPath, loadAgentCommands } from "./inputs/corpus.js";

const launcher = join(root, "bin/rtk");

/** The folder the events name: a git repository, where Claude Code runs `git status` by itself and the rewrite is handed back. */
const REPO = mkdtempSync(join(tmpdir(), "rtk-bench-repo-"));
spawnSync("git", ["init", "-q"], { cwd: REPO });

const EVENT = JSON.stringify({
  session_id: "bench",
  transcript_path: "/dev/null",
  cwd: REPO,
  permission_mode: "default",
  hook_event_name: "PreToolUse",
  tool_name: "Bash",
  tool_input: { command: "git status", description: "Show the working tree status" },
  tool_use_id: "toolu_bench",
});

/** A realistic Claude Code settings file: 50 Bash rules across the three lists. */
function settings50(): string {
  const allow = ["git status", "git diff:*", "git log:*", "npm test:*", "npm run lint", "npx vitest run:*", "cargo test:*", "ls:*", "cat:*", "grep:*"];
  for (let i = 0; allow.length < 30; i++) allow.push(`npm run script${i}`);
  const ask = ["git commit:*", "git merge:*", "npm install:*", "docker compose up:*", "kubectl apply:*"];
  for (let i = 0; ask.length < 10; i++) ask.push(`make target${i}`);
  const deny = ["rm -rf /:*", "git push --force:*", "sudo:*", "curl * | sh", "* --no-verify"];
  for (let i = 0; deny.length < 10; i++) deny.push(`dangerous${i}:*`);
  const wrap = (xs: string[]) => xs.map((p) => `Bash(${p})`);
  return JSON.stringify({ permissions: { allow: [...wrap(allow), "Read", "Edit"], ask: wrap(ask), deny: wrap(deny) } }, null, 2);
}

const bench: Bench = async (ctx) => {
  const lib = await loadBuiltLib();
  await ctx.report.section("in-process rewrite: parse + classify + mark + print, per agent command", ["figure", "value"], (area) => {
    const commands = loadAgentCommands();
    if (!commands) return area.skip(`no corpus at ${agentCommandsPath}; nothing to measure here`);
    const registry = lib.fullRegistry();
    const rewrite = (c: string) => lib.rewriteCommand(c, { registry });
    const { each, all } = measureEach(commands, rewrite, { warmupRounds: scale(ctx, { full: 100, ci: 30 }), rounds: scale(ctx, { full: 600, ci: 100 }) });
    const medians = summarize(each.map((e) => e.stats.median));
    area.row(["median of per-command medians", duration(medians.median)], area.check("rewrite median", medians.median, "µs", { max: 20 }));
    area.row(["p99 over all calls", duration(all.p99)], area.check("rewrite p99", all.p99, "µs", { max: 200 }));
    area.row(["slowest command (median)", duration(medians.max)]);
    area.note(`every route active (the full registry), no permission rules; ${commands.length} commands`);
    area.figure("perCommandMedians", medians);
    area.figure("allCalls", all);
  });

  const home = mkdtempSync(join(tmpdir(), "rtk-bench-home-"));
  // A repository: `git status` there is one Claude Code runs by itself, so `rtk rewrite` hands it back allowed.
  spawnSync("git", ["init", "-q"], { cwd: home });
  try {
    const env = { PATH: process.env["PATH"], HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".local/share") };
    const node: Command = { label: "node -e 0", argv: [process.execPath, "-e", "0"], cwd: root, env };
    const rounds = scale(ctx, { full: 40, ci: 25 });
    const cases: { label: string; cmd: Command; setup?: () => void }[] = [
      { label: 'rtk rewrite "git status"', cmd: { label: "rtk rewrite", argv: [launcher, "rewrite", "git status"], env, ok: [0], cwd: home } },
      { label: "rtk hook claude < event.json", cmd: { label: "rtk hook claude", argv: [launcher, "hook", "claude"], env, input: EVENT, cwd: home } },
      {
        label: "rtk rewrite, 50-rule settings",
        cmd: { label: "rtk rewrite (50 rules)", argv: [launcher, "rewrite", "git status"], env, ok: [0], cwd: home },
        setup: () => {
          mkdirSync(join(home, ".claude"), { recursive: true });
          writeFileSync(join(home, ".claude", "settings.json"), settings50());
        },
      },
    ];
    let nodeMedianUs = 0;
    await ctx.report.section(
      "hook latency: whole process through bin/rtk vs node -e 0 and an empty snapshot",
      ["command", "median", "min", "max", "÷ node -e 0", "÷ empty snapshot", "CPU (mean)", "CPU ÷ empty snapshot"],
      (area) => {
        const hooked = spawnSync(launcher, ["hook", "claude"], { input: EVENT, env, encoding: "utf8" });
        area.row(
          ["the hook answers with a rewrite", hooked.stdout.includes("rtk git status") ? "yes" : "no", "", "", "", "", "", ""],
          area.check("hook answers", hooked.stdout.includes("rtk git status") ? 1 : 0, "", { equals: 1 }, "correctness"),
        );
        // The floor of any snapshot start: Node restoring a user-land snapshot that holds nothing.
        const floor = emptySnapshot(home);
        if (!floor) throw new Error("no empty snapshot could be built with this Node binary");
        const empty: Command = { label: "empty snapshot", argv: [process.execPath, "--snapshot-blob", floor], env, cwd: home };
        for (const c of cases) c.setup?.();
        // One alternation of them all (node, floor, each rtk command, in turn), so each ratio compares neighbours.
        const [rn, re, ...rr] = roundRobin([node, empty, ...cases.map((c) => c.cmd)], { warmupRounds: 3, rounds });
        const n = rn!.wall;
        const e = re!.wall;
        nodeMedianUs = n.median;
        const cpu = (r: { cpuMean: number | null }) => (r.cpuMean === null ? "" : duration(r.cpuMean));
        area.row(["node -e 0", duration(n.median), duration(n.min), duration(n.max), "1", sig(n.median / e.median), cpu(rn!), ""]);
        area.row(["floor: an empty user-land snapshot", duration(e.median), duration(e.min), duration(e.max), sig(e.median / n.median), "1", cpu(re!), "1"]);
        area.figure("node -e 0", rn);
        area.figure("empty snapshot", { snapshot: re, ratio: e.median / n.median });
        const gates = [
          [STARTUP.rewriteOverNode, STARTUP.rewriteCpuOverFloor],
          [STARTUP.hookOverNode, STARTUP.hookCpuOverFloor],
        ] as const;
        cases.forEach((c, i) => {
          const st = rr[i]!.wall;
          const overNode = st.median / n.median;
          const overFloor = st.median / e.median;
          const cpuOverFloor = rr[i]!.cpuMean !== null && re!.cpuMean ? rr[i]!.cpuMean! / re!.cpuMean : null;
          area.row(
            [c.label, duration(st.median), duration(st.min), duration(st.max), sig(overNode), sig(overFloor), cpu(rr[i]!), cpuOverFloor === null ? "" : sig(cpuOverFloor)],
            area.check(c.label, round3(overNode), "× node", { max: 1.15 }),
          );
          const g = gates[i];
          if (g) {
            area.row(["  gate: wall ÷ node -e 0", "", "", "", sig(overNode), "", "", ""], area.gate(`${c.label}: wall ÷ node -e 0`, round3(overNode), "×", g[0]));
            if (cpuOverFloor !== null)
              area.row(["  gate: CPU ÷ empty snapshot's CPU", "", "", "", "", "", "", sig(cpuOverFloor)], area.gate(`${c.label}: CPU ÷ empty snapshot's CPU`, round3(cpuOverFloor), "×", g[1]));
            else area.note(`${c.label}: no CPU time here (no /proc): its CPU gate is not judged`);
          }
          area.figure(c.label, { rtk: rr[i], node: rn, ratio: overNode, overFloor, cpuOverFloor });
        });
        area.note(
          `${rounds} rounds, the ${cases.length + 2} commands in turn after 3 untimed; hooks run the launcher, which starts Node from the startup snapshot; the floor is what restoring any snapshot costs before rtk's own heap and work; target ≤ 1.15 × node (spec, reported); gates from bench/gates.ts`,
        );
      },
    );
    await ctx.report.section(`hook under pathological input: whole process (budget: ${BUDGET_MS} ms wall, ${BUDGET_MB} MB peak RSS)`, ["input", "wall (median)", "peak RSS (max)", "answer"], (area) =>
      pathological(area, env, home, scale(ctx, { full: 5, ci: 3 }), nodeMedianUs),
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
};

// The hook's answer to any input: its limits (64 KiB, 5,000 steps of reading, 1 s of
// waiting for stdin) put the worst case well inside this, Node's start included.
const BUDGET_MS = 500;
const BUDGET_MB = 150;

const eventOf = (command: string) => JSON.stringify({ ...(JSON.parse(EVENT) as object), tool_input: { command } });

const PATHOLOGICAL: { label: string; command: () => string }[] = [
  { label: "a 1 MB command (x|x|…)", command: () => "x|".repeat(500_000) },
  { label: "900 000 backquotes", command: () => "`".repeat(900_000) },
  // Under the length limit: the step budget decides.
  { label: "a 60 KB command (x|x|…)", command: () => "x|".repeat(30_000) + "x" },
  { label: "60 000 backquotes", command: () => "`".repeat(60_000) },
];

async function pathological(area: Area, env: NodeJS.ProcessEnv, dir: string, rounds: number, nodeUs: number): Promise<void> {
  const eventPath = join(dir, "event.json");
  let method = "";
  for (const c of PATHOLOGICAL) {
    writeFileSync(eventPath, eventOf(c.command()));
    const walls: number[] = [];
    let peak = 0;
    let answer = "";
    for (let i = 0; i < rounds; i++) {
      const run = await runMeasured({ argv: [launcher, "hook", "claude"], cwd: dir, env, stdinPath: eventPath, stdoutPath: join(dir, "hook.out"), scratch: join(dir, "time.txt") });
      walls.push(run.wallUs);
      peak = Math.max(peak, run.peakRssBytes);
      method = run.method;
      answer =
        run.status !== 0
          ? `exit ${run.status}`
          : run.stderr
              .trim()
              .replace(/^rtk hook claude: /, "")
              .replace(/; the command runs unchanged$/, "") || "answered";
    }
    const wall = summarize(walls);
    const mb = peak / 2 ** 20;
    area.row([c.label, duration(wall.median), `${sig(mb)} MB`, answer], area.check(`${c.label}: wall`, Math.round(wall.median / 1000), "ms", { max: BUDGET_MS }));
    area.row(["", "", "", "peak RSS"], area.check(`${c.label}: peak RSS`, Math.round(mb), "MB", { max: BUDGET_MB }));
    if (nodeUs > 0)
      area.row(["", `${sig(wall.median / nodeUs)} × node -e 0`, "", "wall ÷ node"], area.gate(`${c.label}: wall ÷ node -e 0`, round3(wall.median / nodeUs), "×", PATHOLOGICAL_GATES.wallOverNode));
    area.row(["", "", "", "peak RSS"], area.gate(`${c.label}: peak RSS`, Math.round(mb), "MB", PATHOLOGICAL_GATES.peakRssMb));
    area.figure(c.label, { wall, peakRssBytes: peak, answer, rssMethod: method });
  }
  rmSync(eventPath, { force: true });

  // A host that writes its event and keeps stdin open: the answer must not wait for the end of stdin.
  const open: number[] = [];
  let answered = true;
  for (let i = 0; i < rounds; i++) {
    const r = await hookWithStdinOpen(env, dir);
    open.push(r.wallUs);
    answered &&= r.stdout.includes("rtk git status");
  }
  const o = summarize(open);
  area.row(
    ["`git status`, stdin left open", duration(o.median), "", answered ? "rewritten" : "NOT rewritten"],
    area.check("stdin left open: wall", Math.round(o.median / 1000), "ms", { max: BUDGET_MS }),
  );
  area.row(["", "", "", ""], area.check("stdin left open: rewritten", answered ? 1 : 0, "", { equals: 1 }, "correctness"));
  if (nodeUs > 0)
    area.row(["", `${sig(o.median / nodeUs)} × node -e 0`, "", "wall ÷ node"], area.gate("stdin left open: wall ÷ node -e 0", round3(o.median / nodeUs), "×", PATHOLOGICAL_GATES.wallOverNode));
  area.figure("stdin left open", o);

  // The parse itself, without limits: linear in the input (a 1 MB input costs about 10× a 100 KB one).
  const lib = await loadBuiltLib();
  const registry = lib.fullRegistry();
  for (const [label, make] of [
    ["backquotes", (n: number) => "`".repeat(n)],
    ["x|x|…", (n: number) => "x|".repeat(n / 2) + "x"],
  ] as const) {
    const time = (n: number) => {
      const src = make(n);
      return measure(() => lib.rewriteCommand(src, { registry }), { warmup: 1, samples: 3 }).median;
    };
    const small = time(100_000);
    const large = time(1_000_000);
    area.row(
      [`in-process rewrite, no limits, ${label}: 100 KB / 1 MB`, `${duration(small)} / ${duration(large)}`, "", `ratio ${sig(large / small)}`],
      area.check(`${label}: time(1 MB) / time(100 KB)`, Math.round((large / small) * 10) / 10, "", { max: 15 }),
    );
  }
  area.note(
    `${rounds} runs per input, the event read from a file (the stdin-open row: a pipe); peak RSS by ${method}; the environment holds PATH, HOME and XDG folders only (no NODE_EXTRA_CA_CERTS, which costs every Node start)`,
  );
  area.note("linear would be 10 for the in-process ratio; 3 samples each, the garbage of a 1 MB parse included");
}

/** `rtk hook claude` fed a whole event on a pipe that stays open until rtk exits; its wall time. */
function hookWithStdinOpen(env: NodeJS.ProcessEnv, cwd: string): Promise<{ wallUs: number; stdout: string }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(launcher, ["hook", "claude"], { cwd, env, stdio: ["pipe", "pipe", "ignore"] });
    let stdout = "";
    child.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    child.stdin.on("error", () => {});
    child.on("error", reject);
    child.on("close", () => {
      const wallUs = (performance.now() - t0) * 1000;
      child.stdin.destroy();
      resolve({ wallUs, stdout });
    });
    child.stdin.write(EVENT);
  });
}

/** A startup snapshot of nothing, built by this Node binary; null when it cannot be built. */
function emptySnapshot(dir: string): string | null {
  const script = join(dir, "empty-snapshot.js");
  const blob = join(dir, "empty.blob");
  writeFileSync(script, "require('v8').startupSnapshot.setDeserializeMainFunction(() => {});\n");
  const r = spawnSync(process.execPath, ["--snapshot-blob", blob, "--build-snapshot", script], { stdio: "ignore" });
  return r.status === 0 ? blob : null;
}

const round3 = (x: number) => Math.round(x * 1000) / 1000;

export default bench;
