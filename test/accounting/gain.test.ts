// `rtk gain` over records this test writes to the spool: every number it
// prints (text, --json, --csv) against the same sums made here from the
// records, with the savings rules of spec/tracking.md (fallbacks count 0,
// negative savings shown, raw capped where Claude Code cuts a result).
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { features } from "../../src/accounting/features.js";
import { charsOf, estimateTokens, savedTokens } from "../../src/accounting/tokens.js";
import type { RunRecord } from "../../src/accounting/types.js";
import { ensureBuilt } from "../support/build.js";
import { launchSync } from "../support/launch.js";
import { removeSandboxes, sandbox, type Sandbox } from "../support/sandbox.js";

before(() => ensureBuilt());
after(removeSandboxes);

const DAY = 86_400_000;
const NOW = Date.now();
const today = Date.UTC(new Date(NOW).getUTCFullYear(), new Date(NOW).getUTCMonth(), new Date(NOW).getUTCDate());

const big = "src/components/widget-" + "x".repeat(40) + ".tsx: modified\n";
const texts = {
  status: { raw: "On branch main\nChanges not staged for commit:\n" + "  modified:   src/file.ts\n".repeat(30), out: "* main\n~ modified (30): src/file.ts …\n" },
  huge: { raw: big.repeat(1200), out: "1200 files modified\n" },
  grew: { raw: "ok\n", out: "ok (nothing else)\n" },
};

function rec(kind: keyof typeof texts, over: Partial<RunRecord>): RunRecord {
  const t = texts[kind];
  const rf = features(t.raw);
  const of = features(t.out);
  return {
    kind: "run",
    time: NOW,
    project: "/w/alpha",
    route: "git.status",
    command: "git status",
    exitCode: 0,
    durationMs: 7,
    rawBytes: rf[0]!,
    outBytes: of[0]!,
    fellBack: false,
    omitted: 0,
    recallId: null,
    rawFeatures: rf,
    outFeatures: of,
    ...over,
  };
}

const RECORDS: RunRecord[] = [
  rec("status", { time: today + 3600_000, omitted: 4, recallId: "aaaaaaa" }),
  rec("status", { time: today - DAY + 3600_000, project: "/w/beta" }),
  rec("huge", { route: "git.diff", time: today - 2 * DAY + 3600_000, omitted: 1200 }),
  rec("grew", { route: "ls", time: today + 7200_000 }),
  // A fallback: the raw output was printed.
  { ...rec("status", { route: "git.log", time: today + 1000, exitCode: 128 }), fellBack: true, outBytes: features(texts.status.raw)[0]!, outFeatures: features(texts.status.raw) },
  {
    kind: "run",
    time: today + 5000,
    project: "/w/alpha",
    route: "recall",
    command: "rtk recall aaaaaaa",
    exitCode: 0,
    durationMs: 3,
    rawBytes: 0,
    outBytes: 0,
    fellBack: false,
    omitted: 0,
    recallId: "aaaaaaa",
  },
];

/** What the store should hold for a record: tokens and savings as ingestion computes them. */
function tokens(r: RunRecord) {
  const raw = estimateTokens(r.rawFeatures, r.rawBytes);
  const out = r.fellBack ? raw : estimateTokens(r.outFeatures, r.outBytes);
  return { raw, out, saved: savedTokens({ fellBack: r.fellBack, rawTokens: raw, rawChars: charsOf(r.rawFeatures, r.rawBytes), outTokens: out }) };
}

function sums(rs: RunRecord[]) {
  const runs = rs.filter((r) => r.route !== "recall");
  const t = runs.map(tokens);
  const raw = t.reduce((s, x) => s + x.raw, 0);
  const saved = t.reduce((s, x) => s + x.saved, 0);
  return {
    runs: runs.length,
    raw,
    out: t.reduce((s, x) => s + x.out, 0),
    saved,
    pct: raw ? (saved / raw) * 100 : 0,
    omitted: runs.reduce((s, r) => s + r.omitted, 0),
    recalls: rs.length - runs.length,
    fellBack: runs.filter((r) => r.fellBack).length,
    rawBytes: runs.reduce((s, r) => s + r.rawBytes, 0),
    outBytes: runs.reduce((s, r) => s + r.outBytes, 0),
  };
}

const int = (n: number) => n.toLocaleString("en-US");

function world(): Sandbox {
  const b = sandbox("rtk-gain-", { TZ: "UTC" });
  mkdirSync(join(b.data, "rtk"), { recursive: true, mode: 0o700 });
  writeFileSync(join(b.data, "rtk", "spool.jsonl"), RECORDS.map((r) => JSON.stringify(r) + "\n").join(""));
  return b;
}

function gain(b: Sandbox, args: string[]) {
  const r = launchSync(["gain", ...args], { cwd: b.cwd, env: b.env });
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

describe("rtk gain", () => {
  test("the savings rules: a fallback saves 0, a larger output is negative, raw past 30,000 characters is capped", () => {
    const [status, , huge, grew, fell] = RECORDS.map(tokens);
    assert.ok(status!.saved > 0);
    assert.equal(fell!.saved, 0);
    assert.ok(grew!.saved < 0, "rtk printed more than the raw output");
    const hugeChars = texts.huge.raw.length;
    assert.ok(hugeChars > 30_000);
    assert.equal(huge!.saved, Math.round((huge!.raw * 30_000) / hugeChars) - huge!.out);
  });

  test("totals and the route table: every number", () => {
    const b = world();
    const out = gain(b, []);
    const s = sums(RECORDS);
    assert.match(out, new RegExp(`^commands: ${s.runs}   tokens: ${int(s.raw)} raw → ${int(s.out)} printed   saved: ${int(s.saved)} \\(${s.pct.toFixed(1)}%\\)$`, "m"));
    assert.match(out, new RegExp(`^bytes: ${int(s.rawBytes)} raw → ${int(s.outBytes)} printed   items omitted: ${int(s.omitted)}   recalls: ${s.recalls}   raw fallbacks: ${s.fellBack}$`, "m"));
    const rows = out.split("\n").filter((l) => /^(git\.|ls)/.test(l));
    const routes = ["git.status", "git.diff", "ls", "git.log"];
    const expected = routes
      .map((route) => {
        const rs = RECORDS.filter((r) => r.route === route);
        const x = sums(rs);
        // The recall names an entry of a git.status run: it counts for git.status.
        return { route, ...x, recalls: route === "git.status" ? 1 : 0 };
      })
      .sort((a, b) => b.saved - a.saved || b.runs - a.runs);
    assert.deepEqual(
      rows.map((l) => l.trim().split(/\s+/)),
      expected.map((e) => [e.route, String(e.runs), int(e.raw), int(e.out), int(e.saved), `${e.pct.toFixed(1)}%`, int(e.omitted), String(e.recalls)]),
    );
  });

  test("--json and --csv carry the same figures", () => {
    const b = world();
    const j = JSON.parse(gain(b, ["--json"])) as { totals: Record<string, number>; routes: { route: string; savedTokens: number; recalls: number }[] };
    const s = sums(RECORDS);
    assert.deepEqual(
      {
        runs: j.totals["runs"],
        raw: j.totals["rawTokens"],
        out: j.totals["outTokens"],
        saved: j.totals["savedTokens"],
        omitted: j.totals["omitted"],
        recalls: j.totals["recalls"],
        fellBack: j.totals["fellBack"],
      },
      { runs: s.runs, raw: s.raw, out: s.out, saved: s.saved, omitted: s.omitted, recalls: s.recalls, fellBack: s.fellBack },
    );
    assert.ok(Math.abs(j.totals["savedPct"]! - s.pct) < 1e-9);
    assert.deepEqual([j.totals["rawBytes"], j.totals["outBytes"]], [s.rawBytes, s.outBytes], "the bytes the tools printed and rtk printed, summed from the records");
    const csv = gain(b, ["--csv"]).trim().split("\n");
    assert.equal(csv[0], "route,runs,rawTokens,outTokens,savedTokens,savedPct,omitted,recalls,fellBack");
    const ls = sums(RECORDS.filter((r) => r.route === "ls"));
    assert.ok(csv.includes(`ls,1,${ls.raw},${ls.out},${ls.saved},${ls.pct.toFixed(1)},0,0,0`), csv.join("\n"));
  });

  test("--daily, --since, --project, --history, --failures, --graph", () => {
    const b = world();
    const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
    const daily = gain(b, ["--daily", "--csv"]).trim().split("\n").slice(1);
    const byDay = new Map<string, RunRecord[]>();
    for (const r of RECORDS) byDay.set(day(r.time), [...(byDay.get(day(r.time)) ?? []), r]);
    assert.deepEqual(
      daily,
      [...byDay.keys()].sort().map((d) => {
        const x = sums(byDay.get(d)!);
        return `${d},${x.runs},${x.raw},${x.out},${x.saved},${x.pct.toFixed(1)},${x.omitted},${x.recalls},${x.fellBack}`;
      }),
    );
    const since = JSON.parse(gain(b, ["--since", day(today), "--json"])) as { totals: { runs: number; recalls: number } };
    assert.deepEqual([since.totals.runs, since.totals.recalls], [3, 1]);
    const beta = JSON.parse(gain(b, ["--project", "/w/beta", "--json"])) as { totals: { runs: number; savedTokens: number } };
    assert.deepEqual(beta.totals, { ...beta.totals, runs: 1, savedTokens: tokens(RECORDS[1]!).saved });
    const hist = gain(b, ["--history", "2", "--csv"]).trim().split("\n");
    assert.equal(hist.length, 3);
    assert.match(hist[1]!, /^\d+,\/w\/alpha,ls,git status,0,7,/);
    assert.match(hist[2]!, /^\d+,\/w\/alpha,git.status,git status,0,7,\d+,\d+,\d+,false,4,aaaaaaa$/);
    const failures = gain(b, ["--failures"]);
    assert.match(failures, /^git\.log\s+1\s+1\s+100\.0%\s+1$/m);
    const graph = gain(b, ["--graph"]);
    const bars = graph.split("\n").filter((l) => /^\d{4}-\d{2}-\d{2}  /.test(l));
    assert.equal(bars.length, byDay.size);
    for (const l of bars) {
      const x = sums(byDay.get(l.slice(0, 10))!);
      assert.ok(l.endsWith(` ${int(x.saved)}`), l);
    }
    assert.doesNotMatch(graph, /\x1b\[/, "no colours off a terminal");
  });

  test("--daily, --weekly and --monthly in local time, in a zone half an hour off the hour (Asia/Kolkata, UTC+5:30)", () => {
    const b = sandbox("rtk-gain-tz-", { TZ: "Asia/Kolkata" });
    // A recent Sunday (UTC midnight); 18:20 UTC is 23:50 there, 18:40 UTC is 00:10 on Monday.
    let sunday = today - 3 * DAY;
    while (new Date(sunday).getUTCDay() !== 0) sunday -= DAY;
    const at = [sunday + 18 * 3600_000 + 20 * 60_000, sunday + 18 * 3600_000 + 40 * 60_000, sunday + DAY + 18 * 3600_000 + 40 * 60_000];
    mkdirSync(join(b.data, "rtk"), { recursive: true, mode: 0o700 });
    writeFileSync(join(b.data, "rtk", "spool.jsonl"), at.map((time) => JSON.stringify(rec("status", { time })) + "\n").join(""));
    const day = (utcMidnight: number) => new Date(utcMidnight).toISOString().slice(0, 10);
    const rows = (period: string) =>
      gain(b, [period, "--csv"])
        .trim()
        .split("\n")
        .slice(1)
        .map((l) => l.split(",").slice(0, 2).join(" "));
    assert.deepEqual(rows("--daily"), [`${day(sunday)} 1`, `${day(sunday + DAY)} 1`, `${day(sunday + 2 * DAY)} 1`]);
    assert.deepEqual(rows("--weekly"), [`${day(sunday - 6 * DAY)} 1`, `${day(sunday + DAY)} 2`]);
    const months = [day(sunday), day(sunday + DAY), day(sunday + 2 * DAY)].map((d) => d.slice(0, 7));
    assert.deepEqual(
      rows("--monthly"),
      [...new Set(months)].map((m) => `${m} ${months.filter((x) => x === m).length}`),
    );
  });

  test("usage: --help, an unknown option named with the closest one, a bad date", () => {
    const b = world();
    assert.match(gain(b, ["--help"]), /^rtk gain — /);
    const bad = launchSync(["gain", "--dayly"], { cwd: b.cwd, env: b.env });
    assert.equal(bad.status, 2);
    assert.match(bad.stderr, /^rtk gain: unknown option `--dayly` \(did you mean `--daily`\?\); valid: /);
    const date = launchSync(["gain", "--since", "yesterday"], { cwd: b.cwd, env: b.env });
    assert.equal(date.status, 2);
    assert.match(date.stderr, /--since takes a date/);
    const empty = sandbox("rtk-gain-empty-");
    const e = launchSync(["gain"], { cwd: empty.cwd, env: empty.env });
    assert.equal(e.status, 0);
    assert.match(e.stdout, /no runs recorded yet/);
  });
});
