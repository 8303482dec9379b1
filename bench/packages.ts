// Package managers: their recorded runs (test/fixtures/tools, `npm run
// fixtures`, or written from a tool's documented format where it cannot run
// here) replayed through bin/rtk with the tool stood in on PATH. Per fixture:
// savings in exact tokens beside the facts-alone bound, facts kept (read from
// the raw output by test/filters/packages/facts.ts, not by the filters), the
// exit code; the median savings of the medium installs against the issue's
// floor.
import { isPackageRun, replay, toolCases, type ToolCase } from "../test/support/replay.js";
import { factsOf, factsText, lostFacts, READERS } from "../test/filters/packages/facts.js";
import type { Area } from "./harness/report.js";
import type { Tokenizer } from "./inputs/tokenizer.js";
import { savingsGate } from "./gates.js";

/** The floor for the median savings of medium installs. */
export const INSTALLS_TARGET = 80;

export interface PackageOutcome {
  name: string;
  /** A medium install that passed: it counts toward the family's median. */
  medium: boolean;
  rawTokens: number;
  compactTokens: number;
  factTokens: number;
  facts: number;
  kept: number;
  exitOk: boolean;
}

const saved = (raw: number, compact: number) => (raw === 0 ? 0 : ((raw - compact) / raw) * 100);

/** A medium run of an install-like command (not a listing, an audit or an outdated check). */
const isMediumInstall = (c: ToolCase) => /^[^/]+\/(?:install|sync|ci)-medium/.test(c.name) && c.exit === 0;

export async function packagesArea(area: Area, tokenizer: Tokenizer): Promise<PackageOutcome[]> {
  const cases: ToolCase[] = Object.keys(READERS)
    .flatMap((tool) => toolCases(tool))
    .filter(isPackageRun);
  if (!cases.length) {
    area.skip("no recorded package-manager runs (npm run fixtures)");
    return [];
  }
  const outcomes: PackageOutcome[] = [];
  for (const c of cases) {
    const r = await replay(c);
    const facts = factsOf(c);
    const total = facts.packages.length + facts.texts.length;
    const lost = lostFacts(r.stdout + r.stderr, facts).length;
    const o: PackageOutcome = {
      name: c.name,
      medium: isMediumInstall(c),
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
      `${c.recorded} (${c.version})`.slice(0, 40),
    ]);
  }
  const faithful = outcomes.filter((o) => o.kept === o.facts && o.exitOk).length;
  const never = outcomes.filter((o) => o.compactTokens <= o.rawTokens).length;
  area.row(
    ["every fact and exit code kept", "", "", "", "", "", "", `${faithful} / ${outcomes.length}`, ""],
    area.check("package-manager fixtures with 100 % facts and the exit code", faithful, "", { equals: outcomes.length }, "correctness"),
  );
  area.row(
    ["never longer than raw", "", "", "", "", "", "", `${never} / ${outcomes.length}`, ""],
    area.check("package-manager fixtures not longer than raw", never, "", { equals: outcomes.length }, "correctness"),
  );
  const medium = outcomes.filter((o) => o.medium);
  if (medium.length) {
    const median = medianOf(medium.map((o) => saved(o.rawTokens, o.compactTokens)));
    const bound = medianOf(medium.map((o) => saved(o.rawTokens, o.factTokens)));
    area.row(
      [`median of installs (${medium.length} medium passing runs)`, "", "", "", "", `${median.toFixed(1)} %`, `${bound.toFixed(1)} %`, "", ""],
      area.check("installs median savings", Math.round(median * 10) / 10, "%", { min: INSTALLS_TARGET }),
    );
    const g = savingsGate("installs");
    if (g) area.row(["", "", "", "", "", "", "", "", ""], area.gate(`${"installs"} median savings`, Math.round(median * 10) / 10, "%", g));
    area.figure("installs", { median, factsAloneMedian: bound, fixtures: medium.map((o) => o.name) });
  }
  area.figure("fixtures", outcomes);
  area.note(
    "* = medium passing install (counts toward the installs median); facts alone: the savings if the output were the facts alone, one per line (every package named with its versions, every error and warning line, the verdict's counts); recorded: real = made by npm run fixtures, documented = written from the tool's documented format",
  );
  return outcomes;
}

function medianOf(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}
