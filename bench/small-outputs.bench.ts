// What outputs too short to be worth compacting add to the saving. Over the bench
// corpora — the recorded tool runs of the filter tests (test/fixtures/tools), the
// git and files fixtures of the filter bench, and the peer's recorded outputs in
// ../shared/bench/fixtures when present — every output is run through bin/rtk with
// the passthrough off, and its saving (raw tokens − printed tokens, exact o200k) is
// put against its raw size as rtk judges it (bytes / 4). For each size N the table
// gives the share of the whole saving that comes from outputs under N, and the
// savings medians of medium passing runs (runners, builds) were they printed as
// they are: the largest N whose outputs cost at most 5 % of the saving and that
// keeps the medians at their floors (90 %, 80 %) is where `limits.passthrough_tokens`
// can print outputs byte for byte (src/config/schema.ts's default is checked against it).
// (../shared/corpus holds commands, not outputs: it has nothing to measure here.)
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import * as filesFx from "../test/filters/files/fixtures.js";
import * as gitFx from "../test/filters/git/fixtures.js";
import { isPackageRun, isTestRun, replay, TOOL_FIXTURES, toolCases } from "../test/support/replay.js";
import { LINTERS } from "./builds.js";
import { READERS as BUILD_READERS } from "../test/filters/builds/facts.js";
import { DEFAULT_PASSTHROUGH_TOKENS } from "../src/config/schema.js";
import { loadBuiltLib, root, type Bench } from "./harness/context.js";
import { loadTokenizer, type Tokenizer } from "./inputs/tokenizer.js";

/** The sizes the table is read at, in tokens of 4 characters. */
const SIZES = [25, 50, 100, 150, 200, 250, 300, 400, 500, 550, 600, 650, 700, 750, 1000];
/** The most of the saving the outputs printed as they are may cost. */
const SHARE = 5;
/** The savings medians of medium passing runs that must hold with them printed as they are (the issue's floors). */
const RUNNERS_FLOOR = 90;
const BUILDS_FLOOR = 80;

interface Output {
  corpus: string;
  name: string;
  /** A medium passing run of a test runner or a build: what the savings medians are taken over (as the filters bench takes them). */
  median?: "runners" | "builds";
  /** Raw bytes, as the runtime measures an output against the passthrough size. */
  rawBytes: number;
  rawTokens: number;
  printedTokens: number;
}

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

const bench: Bench = async (ctx) => {
  const tokenizer = await loadTokenizer();
  const tmp = mkdtempSync(join(tmpdir(), "rtk-bench-small-"));
  try {
    // Every output compacted: the passthrough off.
    const config = join(tmp, "config.toml");
    writeFileSync(config, "[limits]\npassthrough_tokens = 0\n");
    const outputs: Output[] = [];
    await ctx.report.section("small outputs: the corpora run through bin/rtk with the passthrough off", ["corpus", "outputs", "raw tokens", "printed tokens", "saved"], async (area) => {
      const parts = [
        await toolFixtures(tokenizer, config),
        gitFixtures(join(tmp, "git"), tokenizer, config),
        filesFixtures(join(tmp, "files"), tokenizer, config),
        await peerFixtures(join(tmp, "peers"), tokenizer, config),
      ];
      for (const part of parts) {
        if (typeof part === "string") {
          area.note(part);
          continue;
        }
        outputs.push(...part);
        const raw = part.reduce((n, o) => n + o.rawTokens, 0);
        const printed = part.reduce((n, o) => n + o.printedTokens, 0);
        area.row([part[0]?.corpus ?? "", part.length, raw, printed, raw - printed]);
      }
    });
    await ctx.report.section(
      "small outputs: the share of the saving from outputs under N tokens (bytes / 4), and the N chosen",
      ["N (tokens)", "outputs under N", "of all", "their saving (tokens)", "of the whole saving", "runners median", "builds median"],
      (area) => {
        const saving = (o: Output) => o.rawTokens - o.printedTokens;
        const total = outputs.reduce((n, o) => n + saving(o), 0);
        // The savings medians of medium passing runs with the passthrough at N: a run under N saves nothing.
        const median = (kind: "runners" | "builds", n: number) => {
          const pcts = outputs
            .filter((o) => o.median === kind)
            .map((o) => (o.rawBytes < n * 4 || o.rawTokens === 0 ? 0 : (saving(o) / o.rawTokens) * 100))
            .sort((a, b) => a - b);
          const m = pcts.length >> 1;
          return pcts.length === 0 ? 0 : pcts.length % 2 ? pcts[m]! : (pcts[m - 1]! + pcts[m]!) / 2;
        };
        let chosen = 0;
        for (const n of SIZES) {
          const under = outputs.filter((o) => o.rawBytes < n * 4);
          const part = under.reduce((s, o) => s + saving(o), 0);
          const share = total ? (part / total) * 100 : 0;
          const runners = median("runners", n);
          const builds = median("builds", n);
          if (share <= SHARE && runners >= RUNNERS_FLOOR && builds >= BUILDS_FLOOR) chosen = n;
          area.row([n, under.length, `${((under.length / Math.max(1, outputs.length)) * 100).toFixed(1)} %`, part, `${share.toFixed(2)} %`, `${runners.toFixed(1)} %`, `${builds.toFixed(1)} %`]);
          area.figure(`under-${n}`, { outputs: under.length, saving: part, sharePct: share, runnersMedianPct: runners, buildsMedianPct: builds });
        }
        const costs = outputs.filter((o) => o.rawBytes < chosen * 4).reduce((s, o) => s + saving(o), 0);
        area.figure(
          "outputs",
          outputs.map((o) => ({ corpus: o.corpus, name: o.name, rawBytes: o.rawBytes, rawTokens: o.rawTokens, printedTokens: o.printedTokens })),
        );
        area.figure("chosen", { tokens: chosen, savingCost: costs, savingCostPct: total ? (costs / total) * 100 : 0, totalSaving: total, outputs: outputs.length });
        area.note(
          `whole saving ${total} tokens over ${outputs.length} outputs; the largest N whose outputs cost at most ${SHARE} % of it while the medians of medium passing runs stay ≥ ${RUNNERS_FLOOR} % (runners) and ≥ ${BUILDS_FLOOR} % (builds): ${chosen} (${costs} tokens, ${total ? ((costs / total) * 100).toFixed(2) : "0"} %)`,
        );
        area.row(
          ["default limits.passthrough_tokens", "", "", "", `${DEFAULT_PASSTHROUGH_TOKENS}`],
          area.check("the default passthrough size is at most the N measured", DEFAULT_PASSTHROUGH_TOKENS, "tokens", { max: chosen }, "correctness"),
        );
      },
    );
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
};

function measured(corpus: string, name: string, raw: string, printed: string, tokenizer: Tokenizer): Output {
  return { corpus, name, rawBytes: Buffer.byteLength(raw), rawTokens: tokenizer.count(raw), printedTokens: tokenizer.count(printed) };
}

/** The recorded runs of the filter tests, each played by a stand-in for its tool. */
async function toolFixtures(tokenizer: Tokenizer, config: string): Promise<Output[]> {
  const lib = await loadBuiltLib();
  const registry = lib.activeRegistry();
  const out: Output[] = [];
  const tools = readdirSync(TOOL_FIXTURES).filter((t) => statSync(join(TOOL_FIXTURES, t)).isDirectory());
  for (const c of tools.flatMap((t) => toolCases(t))) {
    // Only what rtk routes: an unrouted command prints as it is, whatever its size.
    if (lib.rewriteCommand(c.argv.map(shellQuote).join(" "), { registry }).command === null) continue;
    const r = await replay(c, [], { RTK_CONFIG: config });
    const o = measured("test/fixtures/tools", c.name, c.stdout + c.stderr, r.stdout + r.stderr, tokenizer);
    // The filters bench's builds: a build tool's recorded run (not a linter's), medium, passing.
    const tool = c.name.split("/")[0]!;
    const build = tool in BUILD_READERS && !isTestRun(c) && !isPackageRun(c) && !LINTERS.has(tool) && /^[^/]+\/medium/.test(c.name) && c.exit === 0;
    out.push({ ...o, ...(isTestRun(c) && /pass-medium/.test(c.name) ? { median: "runners" as const } : build ? { median: "builds" as const } : {}) });
  }
  return out;
}

/** The git fixtures of the filter bench: each run by git in its repository, then through bin/rtk in a copy. */
function gitFixtures(dir: string, tokenizer: Tokenizer, config: string): Output[] {
  const world = join(dir, "world");
  gitFx.buildWorld(world);
  const env = { ...gitFx.gitEnv(dir), RTK_CONFIG: config };
  return gitFx.FIXTURES.map((f) => {
    const raw = gitFx.runGit(f.args, gitFx.instantiate(world, join(dir, "runs", f.name, "raw"), f, env), env);
    const rtkDir = gitFx.readOnly(f) ? join(dir, "runs", f.name, "raw") : gitFx.instantiate(world, join(dir, "runs", f.name, "rtk"), f, env);
    const compact = gitFx.runRtk(["git", ...f.args], rtkDir, env);
    return measured("git fixtures (bench)", f.name, raw.stdout + raw.stderr, compact.stdout + compact.stderr, tokenizer);
  });
}

/** The files fixtures of the filter bench (ls, tree, find, grep, cat, wc, env) in its project. */
function filesFixtures(dir: string, tokenizer: Tokenizer, config: string): Output[] {
  const project = join(dir, "project");
  for (const d of ["project", "home", "data", "config"]) mkdirSync(join(dir, d), { recursive: true });
  filesFx.buildProject(project);
  filesFx.buildVendor(project, 2500);
  const env = { ...filesFx.testEnv(dir), RTK_CONFIG: config };
  return filesFx.FIXTURES.filter((fx) => !fx.needs || filesFx.hasTool(fx.needs)).map((fx) => {
    const e = { ...env, ...fx.env };
    const plain = filesFx.runPlain(fx.argv, project, e);
    const r = filesFx.runRtk(fx.argv, project, e);
    return measured("files fixtures (bench)", fx.name, plain.stdout + plain.stderr, r.stdout + r.stderr, tokenizer);
  });
}

/** The peer's recorded outputs whose command rtk routes, each printed by a stand-in named like the tool. */
async function peerFixtures(dir: string, tokenizer: Tokenizer, config: string): Promise<Output[] | string> {
  const fixtures = join(root, "../shared/bench/fixtures");
  const manifestPath = join(fixtures, "MANIFEST.json");
  if (!existsSync(manifestPath)) return `no peer fixtures at ${fixtures}: that corpus is left out`;
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { slug: string; command: string; raw: string }[];
  const lib = await loadBuiltLib();
  const registry = lib.activeRegistry();
  const env = { ...filesFx.testEnv(dir), RTK_CONFIG: config };
  const out: Output[] = [];
  for (const e of manifest) {
    const rawPath = join(fixtures, e.raw);
    const rewritten = lib.rewriteCommand(e.command, { registry }).command;
    if (!existsSync(rawPath) || rewritten === null || !rewritten.startsWith("rtk ")) continue;
    const words = e.command.trim().split(/\s+/);
    const fake = join(dir, e.slug);
    mkdirSync(fake, { recursive: true });
    const tool = join(fake, basename(words[0]!));
    writeFileSync(tool, `#!/bin/sh\nexec cat ${shellQuote(rawPath)}\n`);
    chmodSync(tool, 0o755);
    const r = filesFx.runRtk([tool, ...words.slice(1)], fake, env);
    out.push(measured("../shared/bench/fixtures", e.slug, readFileSync(rawPath, "utf8"), r.stdout + r.stderr, tokenizer));
  }
  return out;
}

export default bench;
