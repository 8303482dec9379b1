// Parse time of the built library: per agent command, and how it scales with
// input size (it must stay linear).
import { loadBuiltLib, scale, type Bench, type BenchContext } from "./harness/context.js";
import { measure, measureEach, timerOverhead } from "./harness/measure.js";
import { duration, sig, type Area } from "./harness/report.js";
import { summarize } from "./harness/stats.js";
import { agentCommandsPath, loadAgentCommands } from "./inputs/corpus.js";
import { generateScript } from "./inputs/generate-script.js";

type Parse = (src: string) => { ok: boolean };

const SIZES = [
  { label: "1 KB", bytes: 1 << 10 },
  { label: "10 KB", bytes: 10 << 10 },
  { label: "100 KB", bytes: 100 << 10 },
  { label: "1 MB", bytes: 1 << 20 },
];

const bench: Bench = async (ctx) => {
  const { parse } = await loadBuiltLib();
  await ctx.report.section("parse: agent commands (in-process, dist/lib.mjs)", ["figure", "value"], (area) => agentCommands(ctx, area, parse));
  await ctx.report.section("parse: scaling with input size (generated scripts)", ["size", "lines", "median", "min", "max", "µs / KB"], (area) => scaling(ctx, area, parse));
};

function agentCommands(ctx: BenchContext, area: Area, parse: Parse): void {
  const commands = loadAgentCommands();
  if (!commands) return area.skip(`no corpus at ${agentCommandsPath}; nothing to measure here`);

  // Timing the error path would be meaningless, so every command must parse.
  const parsed = commands.filter((c) => parse(c).ok).length;
  area.row(["commands parsed", `${parsed} / ${commands.length}`], area.check("commands parsed", parsed, "", { equals: commands.length }, "correctness"));

  const rounds = scale(ctx, { full: 1000, ci: 150 });
  const { each, all } = measureEach(commands, parse, { warmupRounds: scale(ctx, { full: 100, ci: 30 }), rounds });
  const medians = summarize(each.map((e) => e.stats.median));
  area.row(["median of per-command medians", duration(medians.median)], area.check("per-command median", medians.median, "µs", { max: 10 }));
  area.row(["p99 of per-command medians", duration(medians.p99)]);
  area.row(["fastest / slowest command", `${duration(medians.min)} / ${duration(medians.max)}`]);
  area.row(["p99 over all calls", duration(all.p99)]);
  const overhead = timerOverhead();
  area.row(["timer overhead (in every sample)", duration(overhead)]);

  const bytes = commands.reduce((n, c) => n + Buffer.byteLength(c), 0);
  const pass = measure(() => commands.forEach((c) => parse(c)), { warmup: 5, samples: scale(ctx, { full: 100, ci: 20 }) });
  const perSecond = commands.length / (pass.median / 1e6);
  area.row(["throughput (whole corpus)", `${sig(perSecond / 1000)} k commands/s, ${sig(bytes / pass.median)} MB/s`]);

  const slowest = [...each].sort((a, b) => b.stats.median - a.stats.median).slice(0, 3);
  area.note(`${commands.length} commands × ${rounds} rounds, round-robin, after ${scale(ctx, { full: 100, ci: 30 })} untimed`);
  area.note("slowest: " + slowest.map((e) => `${duration(e.stats.median)} ${JSON.stringify(e.item.slice(0, 40))}`).join(", "));
  area.figure("rounds", rounds);
  area.figure("perCommandMedians", medians);
  area.figure("allCalls", all);
  area.figure("timerOverhead", overhead);
  area.figure("corpusPass", { ...pass, commands: commands.length, bytes, commandsPerSecond: perSecond });
  area.figure(
    "perCommand",
    each.map((e) => ({ command: e.item, ...e.stats })),
  );
}

function scaling(ctx: BenchContext, area: Area, parse: Parse): void {
  const sources = SIZES.map((s) => ({ ...s, src: generateScript(s.bytes) }));
  const parsed = sources.filter((s) => parse(s.src).ok).length;
  const check = area.check("generated scripts parse", parsed, "", { equals: sources.length }, "correctness");
  if (!check.pass) {
    area.row(["generated scripts parse", "", `${parsed} / ${sources.length}`, "", "", ""], check);
    return;
  }

  // Small inputs are timed alone, with many samples: after a 1 MB parse they
  // would pay for its garbage. 100 KB and 1 MB alternate (A B A B …), so drift
  // in machine speed hits both alike and their ratio compares neighbours.
  const small = sources.filter((s) => s.bytes < 100 << 10);
  const large = sources.filter((s) => s.bytes >= 100 << 10);
  const alternated = measureEach(large, (s) => parse(s.src), {
    // In CI the parses above (the check, the small sizes) are the warm-up.
    warmupRounds: scale(ctx, { full: 1, ci: 0 }),
    rounds: scale(ctx, { full: 15, ci: 5 }),
    // A slow, shared machine must not push the CI run past its two minutes.
    budgetMs: scale(ctx, { full: 60_000, ci: 10_000 }),
    minRounds: 3,
  });
  const each = [...small.map((item) => ({ item, stats: measure(() => parse(item.src), { warmup: 20, samples: scale(ctx, { full: 300, ci: 60 }) }) })), ...alternated.each];
  for (const { item, stats } of each) {
    const lines = item.src.split("\n").length - 1;
    const perKB = stats.median / (item.bytes / 1024);
    area.row([item.label, lines, duration(stats.median), duration(stats.min), duration(stats.max), sig(perKB)]);
    area.figure(item.label, { bytes: item.bytes, lines, ...stats, usPerKB: perKB });
  }
  const median = (bytes: number) => each.find((e) => e.item.bytes === bytes)!.stats.median;
  const ratio = median(1 << 20) / median(100 << 10);
  area.row(["time(1 MB) / time(100 KB)", "", sig(ratio), "", "", ""], area.check("time(1 MB) / time(100 KB)", ratio, "", { max: 12 }));
  area.row(["generated scripts parse", "", `${parsed} / ${sources.length}`, "", "", ""], check);
  area.note(`1 KB, 10 KB: ${scale(ctx, { full: 300, ci: 60 })} samples each; 100 KB and 1 MB: ${alternated.rounds} alternated rounds; linear would be 10`);
  area.figure("rounds", alternated.rounds);
  area.figure("ratio1MBto100KB", ratio);
}

export default bench;
