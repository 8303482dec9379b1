// Containers, clusters, GitHub and infrastructure: the service tools' fixtures
// (test/fixtures/tools: terraform recorded from the real tool, the others
// written from their documented formats) replayed through bin/rtk with the
// tool stood in on PATH. Per fixture: savings in exact tokens beside the
// facts-alone bound, the facts kept (read from the raw output by
// test/filters/services/facts.ts, not by the filters), the exit code; per
// family, the median savings over its medium fixtures against the floors.
import { filterOf, replay, toolCases } from "../test/support/replay.js";
import { factsOf, factsText, lostFacts } from "../test/filters/services/facts.js";
import type { Area } from "./harness/report.js";
import type { Tokenizer } from "./inputs/tokenizer.js";
import { savingsGate } from "./gates.js";

const TOOLS = ["docker", "podman", "kubectl", "helm", "gh", "terraform", "psql", "mysql", "aws", "gcloud", "az"];

/** The floors for the median savings of medium fixtures, by family. */
export const SERVICE_FAMILY_TARGETS: Record<string, number> = { "docker ps/kubectl get": 60, "gh pr list": 60, "terraform plan": 70 };

/** The family a fixture counts toward (null: none with a floor; its row is shown all the same). */
function familyOf(name: string, argv: readonly string[], filter: string | null): string {
  if ((filter === "table.docker" && !/\bimages?\b/.test(argv.join(" "))) || filter === "table.kubectl") return "docker ps/kubectl get";
  if (argv[0] === "gh" && argv[1] === "pr" && argv[2] === "list") return "gh pr list";
  if (filter === "terraform" && argv.includes("plan")) return "terraform plan";
  return filter ?? name.split("/")[0]!;
}

const saved = (raw: number, compact: number) => (raw === 0 ? 0 : ((raw - compact) / raw) * 100);

function medianOf(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2;
}

export async function servicesArea(area: Area, tokenizer: Tokenizer): Promise<void> {
  const cases = TOOLS.flatMap((t) => toolCases(t));
  if (!cases.length) return area.skip("no service tool fixtures (node scripts/fixtures/services-documented.mjs; npm run fixtures -- terraform)");
  const outcomes: { name: string; family: string; medium: boolean; saved: number; bound: number; kept: number; facts: number; exitOk: boolean; never: boolean }[] = [];
  for (const c of cases) {
    const filter = filterOf(c);
    const r = await replay(c);
    const facts = factsOf(c, filter);
    const lost = lostFacts(r.stdout + r.stderr, facts).length;
    const rawTokens = tokenizer.count(c.stdout + c.stderr);
    const compactTokens = tokenizer.count(r.stdout + r.stderr);
    const factTokens = tokenizer.count(factsText(facts));
    const o = {
      name: c.name,
      family: familyOf(c.name, c.argv, filter),
      medium: /^[^/]+\/medium/.test(c.name),
      saved: saved(rawTokens, compactTokens),
      bound: saved(rawTokens, factTokens),
      kept: facts.length - lost,
      facts: facts.length,
      exitOk: r.status === c.exit,
      never: Buffer.byteLength(r.stdout + r.stderr) <= Buffer.byteLength(c.stdout + c.stderr),
    };
    outcomes.push(o);
    area.row([
      `${o.medium ? "* " : "  "}${c.name}`,
      c.argv.join(" ").slice(0, 44),
      c.exit,
      rawTokens,
      compactTokens,
      `${o.saved.toFixed(1)} %`,
      `${o.bound.toFixed(1)} %`,
      `${o.kept} / ${o.facts}`,
      c.recorded,
    ]);
  }
  const faithful = outcomes.filter((o) => o.kept === o.facts && o.exitOk).length;
  const never = outcomes.filter((o) => o.never).length;
  area.row(
    ["every fact and exit code kept", "", "", "", "", "", "", `${faithful} / ${outcomes.length}`, ""],
    area.check("service fixtures with 100 % facts and the exit code", faithful, "", { equals: outcomes.length }, "correctness"),
  );
  area.row(
    ["never longer than raw", "", "", "", "", "", "", `${never} / ${outcomes.length}`, ""],
    area.check("service fixtures not longer than raw", never, "", { equals: outcomes.length }, "correctness"),
  );
  for (const family of Object.keys(SERVICE_FAMILY_TARGETS)) {
    const medium = outcomes.filter((o) => o.medium && o.family === family);
    if (!medium.length) continue;
    const median = medianOf(medium.map((o) => o.saved));
    const bound = medianOf(medium.map((o) => o.bound));
    const whole = medium.every((o) => o.kept === o.facts);
    area.row(
      [`median of ${family} (${medium.length} medium fixtures)`, "", "", "", "", `${median.toFixed(1)} %`, `${bound.toFixed(1)} %`, whole ? "100 %" : "facts lost", ""],
      area.check(`${family} median savings`, Math.round(median * 10) / 10, "%", { min: SERVICE_FAMILY_TARGETS[family]! }),
    );
    const g = savingsGate(family);
    if (g) area.row(["", "", "", "", "", "", "", "", ""], area.gate(`${family} median savings`, Math.round(median * 10) / 10, "%", g));
    area.figure(family, { median, factsAloneMedian: bound, fixtures: medium.map((o) => o.name) });
  }
  // The families without a floor in the issue: their medians, shown and recorded.
  const others = [...new Set(outcomes.filter((o) => o.medium && !(o.family in SERVICE_FAMILY_TARGETS)).map((o) => o.family))];
  for (const family of others) {
    const medium = outcomes.filter((o) => o.medium && o.family === family);
    const median = medianOf(medium.map((o) => o.saved));
    const bound = medianOf(medium.map((o) => o.bound));
    const whole = medium.every((o) => o.kept === o.facts);
    area.row([`median of ${family} (${medium.length} medium fixtures)`, "", "", "", "", `${median.toFixed(1)} %`, `${bound.toFixed(1)} %`, whole ? "100 %" : "facts lost", ""]);
    area.figure(family, { median, factsAloneMedian: bound, fixtures: medium.map((o) => o.name) });
  }
  area.figure("fixtures", outcomes);
  area.note(
    "* = medium fixture (counts toward its family's median); facts alone: the savings if the output were the facts alone, one per line (each row's identity and status cells, each pull request's number, title and state, each resource action with its address, the summary lines, errors); recorded: real = made by npm run fixtures, documented = written from the tool's documented format (scripts/fixtures/services-documented.mjs, scripts/fixtures/clouds-documented.mjs)",
  );
}
