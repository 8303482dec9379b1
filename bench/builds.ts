// Builds, type checkers and linters: their recorded real runs
// (test/fixtures/tools, `npm run fixtures`) replayed through bin/rtk with the
// tool stood in on PATH. Per fixture: savings in exact tokens beside the
// facts-alone bound, facts kept or recallable (read from the raw output by
// test/filters/builds/facts.ts, not by the filters), the exit code; per family,
// the median savings over the medium passing runs against the floors.
import { isPackageRun, isTestRun, replay, toolCases, type ToolCase } from "../test/support/replay.js";
import { factsOf, factsText, lostFacts, READERS } from "../test/filters/builds/facts.js";
import type { Area } from "./harness/report.js";
import type { Tokenizer } from "./inputs/tokenizer.js";
import { savingsGate } from "./gates.js";

/** The floors for the median savings of medium passing runs. */
export const BUILD_FAMILY_TARGETS: Record<string, number> = { builds: 80, linters: 70 };

export const LINTERS = new Set(["eslint", "biome", "oxlint", "prettier", "stylelint", "markdownlint", "ruff", "mypy", "pyright", "golangci-lint", "shellcheck", "rubocop", "hadolint"]);

export interface BuildOutcome {
  name: string;
  family: string;
  /** A medium run that passed: it counts toward its family's median. */
  medium: boolean;
  rawTokens: number;
  compactTokens: number;
  factTokens: number;
  facts: number;
  kept: number;
  exitOk: boolean;
}

const saved = (raw: number, compact: number) => (raw === 0 ? 0 : ((raw - compact) / raw) * 100);

export async function buildsArea(area: Area, tokenizer: Tokenizer): Promise<BuildOutcome[]> {
  const cases: ToolCase[] = Object.keys(READERS)
    .flatMap((tool) => toolCases(tool))
    .filter((c) => !isTestRun(c) && !isPackageRun(c));
  if (!cases.length) {
    area.skip("no recorded build or linter runs (npm run fixtures)");
    return [];
  }
  const outcomes: BuildOutcome[] = [];
  for (const c of cases) {
    const r = await replay(c);
    const facts = factsOf(c);
    const total = facts.diagnostics.length + facts.lines.length + (facts.texts?.length ?? 0);
    // A passing run's warnings behind a counted marker are recallable, not lost.
    const lost = lostFacts(r.stdout + r.stderr, facts, c.exit === 0).lost.length;
    const tool = c.name.split("/")[0]!;
    const o: BuildOutcome = {
      name: c.name,
      family: LINTERS.has(tool) ? "linters" : "builds",
      medium: /^[^/]+\/medium/.test(c.name) && c.exit === 0,
      rawTokens: tokenizer.count(c.stdout + c.stderr),
      compactTokens: tokenizer.count(r.stdout + r.stderr),
      factTokens: tokenizer.count(factsText(facts)),
      facts: total,
      kept: total - lost,
      exitOk: r.status === c.exit,
    };
    outcomes.push(o);
    area.row([
      `${o.medium ? "* " : "  "}${c.name}`,
      `${c.argv.join(" ")}`.slice(0, 44),
      c.exit,
      o.rawTokens,
      o.compactTokens,
      `${saved(o.rawTokens, o.compactTokens).toFixed(1)} %`,
      `${saved(o.rawTokens, o.factTokens).toFixed(1)} %`,
      `${o.kept} / ${o.facts}`,
      c.recorded,
    ]);
  }
  const faithful = outcomes.filter((o) => o.kept === o.facts && o.exitOk).length;
  const never = outcomes.filter((o) => o.compactTokens <= o.rawTokens).length;
  area.row(
    ["every fact and exit code kept", "", "", "", "", "", "", `${faithful} / ${outcomes.length}`, ""],
    area.check("build/linter fixtures with 100 % facts and the exit code", faithful, "", { equals: outcomes.length }, "correctness"),
  );
  area.row(
    ["never longer than raw", "", "", "", "", "", "", `${never} / ${outcomes.length}`, ""],
    area.check("build/linter fixtures not longer than raw", never, "", { equals: outcomes.length }, "correctness"),
  );
  for (const family of Object.keys(BUILD_FAMILY_TARGETS)) {
    const medium = outcomes.filter((o) => o.medium && o.family === family);
    if (!medium.length) continue;
    const median = medianOf(medium.map((o) => saved(o.rawTokens, o.compactTokens)));
    const bound = medianOf(medium.map((o) => saved(o.rawTokens, o.factTokens)));
    area.row(
      [`median of ${family} (${medium.length} medium passing runs)`, "", "", "", "", `${median.toFixed(1)} %`, `${bound.toFixed(1)} %`, "", ""],
      area.check(`${family} median savings`, Math.round(median * 10) / 10, "%", { min: BUILD_FAMILY_TARGETS[family]! }),
    );
    const g = savingsGate(family);
    if (g) area.row(["", "", "", "", "", "", "", "", ""], area.gate(`${family} median savings`, Math.round(median * 10) / 10, "%", g));
    area.figure(family, { median, factsAloneMedian: bound, fixtures: medium.map((o) => o.name) });
  }
  area.figure("fixtures", outcomes);
  area.note(
    "* = medium passing run (counts toward its family's median); facts alone: the savings if the output were the facts alone, one per line (every diagnostic's file:line:col, code and message, the summary lines, elaborations); recorded: real = made by npm run fixtures, documented = written from the tool's documented format",
  );
  return outcomes;
}

function medianOf(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
