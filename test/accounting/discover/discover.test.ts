// `rtk discover` over generated transcripts: every number of the report (text
// and --json) against the generator's own account of what it wrote, and
// --replay's figures against the built rtk run on the same recorded outputs.
import assert from "node:assert/strict";
import { loadConfig } from "../../../src/config/load.js";
import { chmodSync, copyFileSync, mkdirSync, writeFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import { after, before, describe, test } from "node:test";
import { launch } from "../../support/launch.js";
import { removeSandboxes, sandbox, type Sandbox } from "../../support/sandbox.js";
import { BASE_TIME, generate, type Generated, type GeneratedCall, type Scenario } from "../../support/transcripts.js";
import { analyze, type DiscoverReport } from "../../../src/accounting/discover/analyze.js";
import { renderText } from "../../../src/accounting/discover/report.js";
import { loadHookDecisions } from "../../../src/accounting/decisions.js";
import { activeRegistry } from "../../../src/routing.js";

const DAY = 86_400_000;

interface Filter {
  since?: number;
  project?: string;
}

const inProject = (p: string, root: string) => p === root || p.startsWith(root + sep);
const keep = (f: Filter) => (c: { time: number; project: string }) => (f.since === undefined || c.time >= f.since) && (f.project === undefined || inProject(c.project, f.project));

type Counts = DiscoverReport["totals"];
const zero = (): Counts => ({ commands: 0, typed: 0, hook: 0, missed: 0, kept: 0, noRoute: 0, unread: 0, truncated: 0, missedChars: 0 });
const KEY = { typed: "typed", hook: "hook", missed: "missed", kept: "kept", "no-route": "noRoute", unread: "unread" } as const;
const order = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** What rtk printed for a recorded output, keyed by argv, exit code and text. */
type Measured = Map<string, number>;
const replayKey = (argv: readonly string[], exit: number, text: string) => JSON.stringify([argv, exit, text]);

/** The report, computed from the generator's account alone. */
function expected(g: Generated, f: Filter, replay?: Measured, retell: (sc: Scenario) => Scenario = (sc) => sc): DiscoverReport {
  const calls = g.calls.filter(keep(f)).map((c) => ({ ...c, scenario: retell(c.scenario) }));
  const totals = zero();
  const projects = new Map<string, Counts>();
  const missed = new Map<string, { commands: number; outputChars: number; replay: { replayed: number; rawChars: number; outChars: number } }>();
  const kept = new Map<string, number>();
  const noRoute = new Map<string, number>();
  const skipped = { truncated: 0, noOutput: 0, compound: 0, noFilter: 0 };
  const all = { replayed: 0, rawChars: 0, outChars: 0 };
  for (const c of calls) {
    const sc = c.scenario;
    const p = projects.get(c.project) ?? zero();
    projects.set(c.project, p);
    for (const t of [totals, p]) {
      t.commands++;
      t[KEY[sc.kind]]++;
      if (c.truncated) t.truncated++;
      if (sc.kind === "missed") t.missedChars += c.shown?.length ?? 0;
    }
    if (sc.kind === "missed") {
      const m = missed.get(sc.route!) ?? { commands: 0, outputChars: 0, replay: { replayed: 0, rawChars: 0, outChars: 0 } };
      missed.set(sc.route!, m);
      m.commands++;
      m.outputChars += c.shown?.length ?? 0;
      if (replay) {
        if (c.shown === null) skipped.noOutput++;
        else if (c.truncated) skipped.truncated++;
        else if (!sc.replay) skipped.compound++;
        else {
          const out = replay.get(replayKey(sc.replay, sc.exit, c.shown));
          assert.ok(out !== undefined, `measured ${sc.command}`);
          for (const r of [m.replay, all]) {
            r.replayed++;
            r.rawChars += c.shown.length;
            r.outChars += out;
          }
        }
      }
    }
    if (sc.kind === "kept") kept.set(sc.reason!, (kept.get(sc.reason!) ?? 0) + 1);
    if (sc.kind === "no-route") for (const k of sc.unrouted!) noRoute.set(k, (noRoute.get(k) ?? 0) + 1);
  }
  const decisions = [...g.calls.filter((c) => c.decision !== null), ...g.strayDecisions].filter(keep(f));
  const report: DiscoverReport = {
    totals,
    repeated: 0,
    projects: [...projects].sort((a, b) => b[1].commands - a[1].commands || order(a[0], b[0])).map(([project, c]) => ({ project, ...c })),
    missed: [...missed]
      .sort((a, b) => b[1].outputChars - a[1].outputChars || b[1].commands - a[1].commands || order(a[0], b[0]))
      .map(([route, m]) => ({ route, commands: m.commands, outputChars: m.outputChars, ...(replay ? { replay: m.replay } : {}) })),
    kept: [...kept].sort((a, b) => b[1] - a[1] || order(a[0], b[0])).map(([reason, commands]) => ({ reason, commands })),
    noRoute: [...noRoute]
      .sort((a, b) => b[1] - a[1] || order(a[0], b[0]))
      .slice(0, 15)
      .map(([command, commands]) => ({ command, commands })),
    hookDecisions: { loaded: decisions.length, joined: calls.filter((c) => c.decision !== null).length },
  };
  if (replay) report.replay = { ...all, skipped };
  return report;
}

const readSummary = (g: Generated) => ({ files: g.files, lines: g.lines, malformed: g.malformed });

/** Runs the built rtk on each replayable output, the tool replaced by a stand-in that prints it. */
async function measure(sb: Sandbox, calls: readonly GeneratedCall[], env: Record<string, string> = {}): Promise<Measured> {
  const out: Measured = new Map();
  let n = 0;
  for (const c of calls) {
    const sc = c.scenario;
    if (sc.kind !== "missed" || !sc.replay || c.shown === null || c.truncated) continue;
    const key = replayKey(sc.replay, sc.exit, c.shown);
    if (out.has(key)) continue;
    const dir = join(sb.root, `stand-in-${++n}`);
    mkdirSync(join(dir, "bin"), { recursive: true });
    writeFileSync(join(dir, "output"), c.shown);
    writeFileSync(join(dir, "bin", sc.replay[0]!), `#!/bin/sh\ncat '${join(dir, "output")}'\nexit ${sc.exit}\n`);
    chmodSync(join(dir, "bin", sc.replay[0]!), 0o755);
    const r = await launch(sc.replay, { cwd: dir, env: { ...sb.env, ...env, PATH: `${join(dir, "bin")}:${sb.env["PATH"]}`, RTK_NO_TRACK: "1" } });
    assert.equal(r.status, sc.exit, `${sc.replay.join(" ")}: ${r.stderr}`);
    out.set(key, r.stdout.length + r.stderr.length);
  }
  return out;
}

describe("rtk discover", () => {
  let sb: Sandbox;
  let g: Generated;
  let measured: Measured;
  const discover = (args: string[], env: Record<string, string> = {}) => launch(["discover", ...args], { cwd: sb.cwd, env: { ...sb.env, ...env } });

  before(async () => {
    sb = sandbox("rtk-discover-");
    g = generate(sb.home, join(sb.data, "rtk", "spool.jsonl"));
    measured = await measure(sb, g.calls);
  });
  after(removeSandboxes);

  test("the generated account covers every kind, host and cut", () => {
    const kinds = new Set(g.calls.map((c) => `${c.source}:${c.scenario.kind}`));
    for (const k of ["claude:typed", "claude:hook", "claude:missed", "claude:kept", "claude:no-route", "claude:unread", "codex:missed", "codex:hook", "codex:unread"]) assert.ok(kinds.has(k), k);
    assert.ok(g.calls.some((c) => c.truncated && c.source === "claude") && g.calls.some((c) => c.truncated && c.source === "codex"));
    assert.ok(g.calls.some((c) => c.decision === "pass") && g.malformed >= 4 && measured.size >= 4);
  });

  test("--json: every number, from the generator's account", async () => {
    const r = await discover(["--json"]);
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.stderr, "");
    assert.deepEqual(JSON.parse(r.stdout), { transcripts: readSummary(g), ...expected(g, {}) });
  });

  test("text: the same numbers", async () => {
    const r = await discover([]);
    assert.equal(r.status, 0, r.stderr);
    const want = expected(g, {});
    assert.equal(r.stdout, renderText(want, readSummary(g)));
    // The renderer's own lines, with the numbers written out.
    const t = want.totals;
    const through = t.typed + t.hook;
    assert.match(r.stdout, new RegExp(`^Transcripts: 5 \\(3 Claude Code, 2 Codex\\), ${g.lines} lines, ${g.malformed} malformed skipped$`, "m"));
    assert.match(r.stdout, new RegExp(`^Hook decisions: ${g.decisions} recorded, ${want.hookDecisions.joined} joined`, "m"));
    assert.match(r.stdout, new RegExp(`^Shell commands: ${t.commands}$`, "m"));
    assert.match(r.stdout, new RegExp(`^  through rtk +${through} +${((100 * through) / t.commands).toFixed(1)}% +${t.typed} typed as rtk, ${t.hook} rewritten by the hook$`, "m"));
    assert.match(r.stdout, new RegExp(`^  missed +${t.missed} +${((100 * t.missed) / t.commands).toFixed(1)}% +a route, ran raw: ${t.missedChars} chars of output$`, "m"));
    assert.match(r.stdout, new RegExp(`^  outputs cut by the host: ${t.truncated}$`, "m"));
    for (const m of want.missed) assert.match(r.stdout, new RegExp(`^  ${m.route.replace(".", "\\.")} +${m.commands} +${m.outputChars}$`, "m"));
    for (const k of want.kept) assert.match(r.stdout, new RegExp(`^  ${k.reason} +${k.commands}$`, "m"));
    for (const n of want.noRoute) assert.match(r.stdout, new RegExp(`^  ${n.command} +${n.commands}$`, "m"));
  });

  test("--replay: the filters' figures equal the built rtk's output on the same records", async () => {
    const want = expected(g, {}, measured);
    const r = await discover(["--replay", "--json"]);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { transcripts: readSummary(g), ...want });
    assert.ok(want.replay!.outChars < want.replay!.rawChars, "the fixtures' outputs compact");
    const text = await discover(["--replay"]);
    assert.equal(text.stdout, renderText(want, readSummary(g)));
    const s = want.replay!;
    assert.match(
      text.stdout,
      new RegExp(`^Replayed through rtk's filters: ${s.replayed} of ${want.totals.missed} missed commands: ${s.rawChars} → ${s.outChars} chars, saved ${s.rawChars - s.outChars} `, "m"),
    );
  });

  test("the analysis as a function gives the same report", () => {
    const calls = g.calls.map((c) => ({
      source: c.source,
      session: c.session,
      id: c.id,
      time: c.time,
      project: c.project,
      cwd: c.project,
      command: c.scenario.command,
      output: c.shown,
      exitCode: c.shown === null ? null : c.scenario.exit,
      truncated: c.truncated,
    }));
    const decisions = loadHookDecisions({}, { XDG_DATA_HOME: sb.data, HOME: sb.home }, (m) => assert.fail(m));
    assert.equal(decisions.length, g.decisions);
    // The config the measured runs read: every output compacted, as the suite runs them (test/support/sandbox.ts).
    const config = loadConfig({ ...sb.env }, sb.cwd);
    assert.deepEqual(analyze(calls, decisions, { registry: activeRegistry(), replay: true, config }), expected(g, {}, measured));
  });

  test("--since and --project narrow the commands and the decisions", async () => {
    const since = new Date(BASE_TIME + DAY).toISOString().slice(0, 10);
    for (const [args, f] of [
      [["--since", since], { since: Date.parse(since) }],
      [["--project", "/home/u/app"], { project: "/home/u/app" }],
      [["--since", `${since}T12:00Z`, "--project", "/home/u"], { since: Date.parse(`${since}T12:00Z`), project: "/home/u" }],
    ] as const) {
      const r = await discover([...args, "--replay", "--json"]);
      assert.equal(r.status, 0, r.stderr);
      const want = expected(g, f, measured);
      assert.ok(want.totals.commands > 0 && want.totals.commands < g.calls.length, JSON.stringify(args));
      assert.deepEqual(JSON.parse(r.stdout), { transcripts: readSummary(g), ...want }, JSON.stringify(args));
    }
  });

  test("the user's config: an excluded command is kept, a declarative filter replacing a route is what the replay runs", async () => {
    const config = join(sb.root, "user-config.toml");
    writeFileSync(config, ["[hooks]", 'exclude_commands = ["eslint"]', "", "[[filters]]", 'name = "pytest"', 'match = "^pytest\\b"', "head = 3", "tail = 2", ""].join("\n"));
    const env = { RTK_CONFIG: config };
    const retell = (sc: Scenario): Scenario => (sc.kind === "missed" && sc.route === "eslint" ? { ...sc, kind: "kept", reason: "excluded" } : sc);
    const withConfig = await measure(
      sb,
      g.calls.map((c) => ({ ...c, scenario: retell(c.scenario) })),
      env,
    );
    const pytest = g.calls.find((c) => c.scenario.route === "pytest" && c.scenario.replay && c.shown !== null)!;
    assert.notEqual(
      withConfig.get(replayKey(pytest.scenario.replay!, pytest.scenario.exit, pytest.shown!)),
      measured.get(replayKey(pytest.scenario.replay!, pytest.scenario.exit, pytest.shown!)),
      "the declarative filter prints otherwise",
    );
    const r = await discover(["--replay", "--json"], env);
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { transcripts: readSummary(g), ...expected(g, {}, withConfig, retell) });
  });

  test("a call seen again under the same id (a copied session) is counted once", async () => {
    const claude = g.perFile.find((f) => f.source === "claude")!;
    const dir = join(sb.root, "copied");
    mkdirSync(dir);
    copyFileSync(claude.path, join(dir, "a.jsonl"));
    copyFileSync(claude.path, join(dir, "b.jsonl"));
    const r = await discover(["--json", dir]);
    const got = JSON.parse(r.stdout);
    const n = g.calls.filter((c) => c.session === claude.session).length;
    assert.deepEqual([got.totals.commands, got.repeated], [n, n]);
    const text = await discover([dir]);
    assert.match(
      text.stdout,
      new RegExp(`^Transcripts: 2 \\(2 Claude Code, 0 Codex\\), ${2 * claude.lines} lines, ${2 * claude.malformed} malformed skipped, ${n} repeated commands counted once$`, "m"),
    );
  });

  test("files and folders named on the command line are read whatever their host", async () => {
    const claude = g.perFile.find((f) => f.source === "claude")!;
    const codex = g.perFile.filter((f) => f.source === "codex");
    const r = await discover(["--json", claude.path, join(sb.home, ".codex")]);
    assert.equal(r.status, 0, r.stderr);
    const got = JSON.parse(r.stdout);
    const files = [claude, ...codex];
    assert.deepEqual(got.transcripts, { files: { claude: 1, codex: codex.length }, lines: files.reduce((n, f) => n + f.lines, 0), malformed: files.reduce((n, f) => n + f.malformed, 0) });
    const sessions = new Set(files.map((f) => f.session));
    assert.equal(got.totals.commands, g.calls.filter((c) => sessions.has(c.session)).length);
  });

  test("nothing found: a report of zeros and where it looked", async () => {
    const empty = sandbox("rtk-discover-empty-");
    const r = await launch(["discover"], { cwd: empty.cwd, env: empty.env });
    assert.equal(r.status, 0, r.stderr);
    assert.ok(r.stdout.startsWith(`No transcripts found (looked in ${join(empty.home, ".claude", "projects")}, ${join(empty.home, ".codex", "sessions")}).\n`), r.stdout);
    assert.match(r.stdout, /^Shell commands: 0$/m);
    const codexHome = await launch(["discover", "--json"], { cwd: empty.cwd, env: { ...empty.env, CODEX_HOME: join(sb.home, ".codex"), CLAUDE_CONFIG_DIR: join(empty.root, "none") } });
    assert.equal(JSON.parse(codexHome.stdout).transcripts.files.codex, 2);
  });

  test("bad options and paths are usage errors that name the problem", async () => {
    const unknown = await discover(["--jsn"]);
    assert.equal(unknown.status, 2);
    assert.match(unknown.stderr, /unknown option `--jsn` \(did you mean `--json`\?\)/);
    const since = await discover(["--since", "yesterday"]);
    assert.equal(since.status, 2);
    assert.match(since.stderr, /--since needs a date .* not `yesterday`/);
    const noValue = await discover(["--project"]);
    assert.equal(noValue.status, 2);
    assert.match(noValue.stderr, /--project needs a value/);
    const missing = await discover([join(sb.root, "nope.jsonl")]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /no such file or folder: .*nope\.jsonl/);
    const help = await discover(["--help"]);
    assert.equal(help.status, 0);
    assert.match(help.stdout, /^rtk discover — /);
    assert.match(help.stdout, /--replay/);
  });
});

describe("loadHookDecisions", () => {
  after(removeSandboxes);

  test("reads the spool's hook records, skips other lines, filters by time and project", () => {
    const sb = sandbox("rtk-decisions-");
    const g = generate(sb.home, join(sb.data, "rtk", "spool.jsonl"));
    const env = { XDG_DATA_HOME: sb.data, HOME: sb.home };
    const all = loadHookDecisions({}, env);
    assert.equal(all.length, g.decisions);
    assert.ok(all.every((d) => d.kind === "hook"));
    const since = BASE_TIME + DAY;
    assert.equal(loadHookDecisions({ since }, env).length, [...g.calls.filter((c) => c.decision !== null), ...g.strayDecisions].filter((d) => d.time >= since).length);
    const app = loadHookDecisions({ project: "/home/u/app" }, env);
    assert.equal(app.length, [...g.calls.filter((c) => c.decision !== null), ...g.strayDecisions].filter((d) => d.project === "/home/u/app").length);
    // RTK_DATA_DIR moves the spool as it moves the rest of rtk's data.
    assert.equal(loadHookDecisions({}, { RTK_DATA_DIR: resolve(sb.data, "rtk"), HOME: sb.home }).length, g.decisions);
    assert.deepEqual(loadHookDecisions({}, { XDG_DATA_HOME: join(sb.root, "none"), HOME: sb.home }), []);
  });
});
