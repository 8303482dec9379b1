// `rtk gain --html FILE` over records this test writes to the spool: every number
// on the page against `rtk gain --json` (one source of figures), the hook
// coverage against the records themselves, strings from the records shown as
// text, the page written whole or not at all, and — the acceptance test — the
// page opened in headless Chromium: no console error, no request, and each
// chart drawn with data (its bars found, and its pixels changing when they are hidden).
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { features } from "../../src/accounting/features.js";
import { TOP_ROUTES, topRoutes } from "../../src/accounting/page.js";
import type { HookRecord, RunRecord } from "../../src/accounting/types.js";
import { ensureBuilt } from "../support/build.js";
import { launchSync } from "../support/launch.js";
import { removeSandboxes, sandbox, type Sandbox } from "../support/sandbox.js";

before(() => ensureBuilt());
after(removeSandboxes);

const DAY = 86_400_000;
const NOW = Date.now();
const SCRIPT = `echo '<script>alert("x")</script>' && cat a&b`;
const ODD_ROUTE = `<img src=x onerror=alert(1)>`;

const rawText = "On branch main\nChanges not staged for commit:\n" + "  modified:   src/file.ts\n".repeat(40);
const outText = "* main\n~ modified (40): src/file.ts …\n";

function run(i: number, over: Partial<RunRecord> = {}): RunRecord {
  // Routes of different sizes, so that the route chart has a top and an "other".
  const raw = rawText.repeat(1 + (i % 5));
  const rf = features(raw);
  const of = features(outText);
  return {
    kind: "run",
    time: NOW - (i % 6) * DAY - 60_000,
    project: i % 3 ? "/w/alpha" : "/w/beta",
    route: `tool${i % 16}.sub`,
    command: `tool${i % 16} sub ${i}`,
    exitCode: 0,
    durationMs: 9,
    rawBytes: rf[0]!,
    outBytes: of[0]!,
    fellBack: false,
    omitted: i % 4,
    recallId: i < 4 ? `rc${i}` : null,
    rawFeatures: rf,
    outFeatures: of,
    ...over,
  };
}

function hook(i: number, rewritten: boolean, reasons: string[], verdict: HookRecord["verdict"] = rewritten ? "rewrite-allow" : "pass"): HookRecord {
  return {
    kind: "hook",
    time: NOW - (i % 4) * DAY - 30_000,
    host: "claude",
    session: "s",
    toolUseId: `t${i}`,
    project: i % 2 ? "/w/alpha" : "/w/beta",
    command: rewritten ? "git status" : "git log | grep x",
    rewritten: rewritten ? "rtk git status" : null,
    verdict,
    reasons,
  };
}

function recall(id: string, time: number): RunRecord {
  return { kind: "run", time, project: "/w/alpha", route: "recall", command: `rtk recall ${id}`, exitCode: 0, durationMs: 2, rawBytes: 0, outBytes: 0, fellBack: false, omitted: 0, recallId: id };
}

const RUNS: RunRecord[] = [
  ...Array.from({ length: 60 }, (_, i) => run(i)),
  run(60, { route: ODD_ROUTE, command: SCRIPT, time: NOW - 1000 }),
  // Printed more than the raw output: a negative bar.
  run(61, { route: "grew", rawBytes: 3, rawFeatures: features("ok\n"), outBytes: 30, outFeatures: features("ok (and thirty more bytes..)\n") }),
  run(62, { route: "tool1.sub", fellBack: true, exitCode: 2 }),
];
const HOOKS: HookRecord[] = [
  ...Array.from({ length: 7 }, (_, i) => hook(i, true, ["routed"])),
  ...Array.from({ length: 4 }, (_, i) => hook(10 + i, false, ["pipe-producer", "no-route"])),
  ...Array.from({ length: 2 }, (_, i) => hook(20 + i, false, ["routed", "stdout-to-file"])),
  hook(30, false, ["<i>odd</i>"]),
  hook(31, false, ["privilege"], "deny"),
  hook(32, false, []),
];
const RECALLS = [recall("rc0", NOW - 500), recall("rc0", NOW - 400), recall("rc2", NOW - 300), recall("gone", NOW - 200)];

function world(): Sandbox {
  const b = sandbox("rtk-gain-html-", { TZ: "UTC" });
  mkdirSync(join(b.data, "rtk"), { recursive: true, mode: 0o700 });
  writeFileSync(join(b.data, "rtk", "spool.jsonl"), [...RUNS, ...HOOKS, ...RECALLS].map((r) => JSON.stringify(r) + "\n").join(""));
  return b;
}

function rtk(b: Sandbox, args: string[]) {
  return launchSync(["gain", ...args], { cwd: b.cwd, env: b.env });
}

interface Json {
  totals: Record<string, number>;
  routes: ({ route: string } & Record<string, number>)[];
  periods: { period: string; savedTokens: number }[];
  history: { command: string; route: string }[];
  hooks: { decisions: number; rewritten: number; kept: number; denied: number; keptByReason: { reason: string; decisions: number }[] };
}

function json(b: Sandbox, args: string[] = []): Json {
  const r = rtk(b, ["--json", "--daily", "--history", "20", ...args]);
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as Json;
}

function page(b: Sandbox, args: string[] = [], name = "gain.html"): string {
  const file = join(b.root, name);
  const r = rtk(b, ["--html", file, ...args]);
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /^rtk gain: wrote .*\.html \(\d+ runs, -?[\d,]+ tokens saved\)\n$/);
  return readFileSync(file, "utf8");
}

const unescape = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");

function part(html: string, open: string, close: string): string {
  const at = html.indexOf(open);
  assert.ok(at >= 0, `the page has ${open}`);
  return html.slice(at, html.indexOf(close, at));
}

const chartBars = (html: string, id: string) =>
  [...part(html, `<section class="chart" id="${id}">`, "</section>").matchAll(/data-label="([^"]*)" data-value="(-?[\d.]+)"/g)].map((m) => [unescape(m[1]!), Number(m[2])] as const);
const values = (s: string) => [...s.matchAll(/data-value="(-?[\d.e+-]+)"/g)].map((m) => Number(m[1]));
const TOTAL_KEYS = ["runs", "rawTokens", "outTokens", "savedTokens", "savedPct", "omitted", "recalls", "fellBack"];

describe("rtk gain --html", () => {
  test("every number on the page is the one --json gives", () => {
    const b = world();
    const html = page(b);
    const j = json(b);
    assert.deepEqual(
      values(part(html, `<table id="totals">`, "</table>")),
      TOTAL_KEYS.map((k) => j.totals[k]),
    );
    const bytes = /<span>bytes printed<\/span><b>([\d,]+)<\/b><span>of ([\d,]+) bytes the tools printed<\/span>/.exec(html);
    assert.ok(bytes, "the page shows the bytes printed");
    assert.deepEqual([Number(bytes[1]!.replace(/,/g, "")), Number(bytes[2]!.replace(/,/g, ""))], [j.totals["outBytes"], j.totals["rawBytes"]]);
    const rows = [...part(html, `<table id="routes">`, "</table>").matchAll(/<tr data-route="([^"]*)">(.*?)<\/tr>/g)];
    assert.deepEqual(
      rows.map((m) => [unescape(m[1]!), ...values(m[2]!)]),
      j.routes.map((r) => [r.route, ...TOTAL_KEYS.map((k) => r[k])]),
    );
    assert.deepEqual(
      chartBars(html, "over-time"),
      j.periods.map((p) => [p.period, p.savedTokens]),
    );
    assert.equal(j.periods.length, 6);
    const rest = j.routes.slice(TOP_ROUTES);
    assert.ok(rest.length > 0, "more routes than the chart draws one by one");
    assert.deepEqual(chartBars(html, "by-route"), [
      ...j.routes.slice(0, TOP_ROUTES).map((r) => [r.route, r["savedTokens"]]),
      [`other (${rest.length} routes)`, rest.reduce((s, r) => s + r["savedTokens"]!, 0)],
    ]);
    assert.ok(
      j.routes.some((r) => r["savedTokens"]! < 0),
      "a negative saving is on the page",
    );
    assert.deepEqual(chartBars(html, "hooks"), [["rewritten", j.hooks.rewritten], ...j.hooks.keptByReason.map((k) => [`kept: ${k.reason}`, k.decisions])]);
    assert.deepEqual(
      chartBars(html, "recalls"),
      j.routes
        .filter((r) => r["recalls"]! > 0)
        .map((r) => [r.route, r["recalls"]])
        .sort((a, z) => Number(z[1]) - Number(a[1]) || String(a[0]).localeCompare(String(z[0]))),
    );
    const commands = [...part(html, `<table id="latest">`, "</table>").matchAll(/<td class="cmd">(.*?)<\/td>/g)].map((m) => unescape(m[1]!));
    assert.deepEqual(
      commands,
      j.history.map((h) => h.command),
    );
  });

  test("one run is a run: the notes of the route chart say `1 run`, `2 runs`", () => {
    const row = (route: string, runs: number) => ({
      route,
      runs,
      rawTokens: 0,
      outTokens: 0,
      savedTokens: 10,
      savedPct: 0,
      omitted: 0,
      recalls: 0,
      fellBack: 0,
      exactRuns: 0,
      rawBytes: 0,
      outBytes: 0,
    });
    assert.deepEqual(
      topRoutes([row("a", 1), row("b", 2), row("c", 1)], 2).map((b) => b.note),
      ["10 (1 run)", "10 (2 runs)", "10 (1 run)"],
    );
    assert.equal(topRoutes([row("a", 1), row("b", 1)], 1)[1]!.label, "other (1 route)");
  });

  test("hook coverage counts the records: rewritten, and kept by the reason of their first part not rewritten", () => {
    const j = json(world());
    assert.deepEqual(j.hooks, {
      decisions: HOOKS.length,
      rewritten: 7,
      kept: HOOKS.length - 7,
      denied: 1,
      keptByReason: [
        { reason: "pipe-producer", decisions: 4 },
        { reason: "stdout-to-file", decisions: 2 },
        { reason: "<i>odd</i>", decisions: 1 },
        { reason: "privilege", decisions: 1 },
        { reason: "unread", decisions: 1 },
      ],
    });
    // The recalls count for the route of the run whose output they recalled.
    const byRoute = new Map(j.routes.map((r) => [r.route, r["recalls"]]));
    assert.deepEqual([byRoute.get("tool0.sub"), byRoute.get("tool2.sub"), byRoute.get("(unknown)")], [2, 1, 1]);
  });

  test("strings from the records are text: no markup of theirs reaches the page", () => {
    const html = page(world());
    assert.doesNotMatch(html, /<script|<img|<i>/i);
    assert.ok(html.includes(`<td class="cmd">echo &#39;&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; &amp;&amp; cat a&amp;b</td>`));
    assert.ok(html.includes(`data-label="kept: &lt;i&gt;odd&lt;/i&gt;"`));
    assert.ok(html.includes(`&lt;img src=x onerror=alert(1)&gt;`));
  });

  test("--project and --since: the page and --json agree on the same scope", () => {
    const b = world();
    for (const scope of [
      ["--project", "/w/beta"],
      ["--since", "3d"],
    ]) {
      const html = page(b, scope, `scoped-${scope[0]!.slice(2)}.html`);
      const j = json(b, scope);
      assert.deepEqual(
        values(part(html, `<table id="totals">`, "</table>")),
        TOTAL_KEYS.map((k) => j.totals[k]),
      );
      assert.deepEqual(chartBars(html, "hooks"), [["rewritten", j.hooks.rewritten], ...j.hooks.keptByReason.map((k) => [`kept: ${k.reason}`, k.decisions])]);
      assert.ok(j.totals["runs"]! > 0 && j.totals["runs"]! < RUNS.length, `${scope.join(" ")} keeps some runs`);
    }
    assert.match(page(b, ["--project", "/w/beta"]), /project \/w\/beta/);
  });

  test("a page that cannot be written: a clear error, exit 1, nothing left behind; `-` and no file are usage errors", () => {
    const b = world();
    const dash = rtk(b, ["--html", "-"]);
    assert.equal(dash.status, 2);
    assert.equal(dash.stdout, "");
    assert.match(dash.stderr, /--html writes a file, not stdout/);
    const none = rtk(b, ["--html"]);
    assert.equal(none.status, 2);
    assert.match(none.stderr, /--html needs the file/);
    const both = rtk(b, ["--json", "--html", "x.html"]);
    assert.equal(both.status, 2);
    assert.match(both.stderr, /one of --json, --csv, --html at a time/);
    const missing = rtk(b, ["--html", join(b.root, "no", "such", "gain.html")]);
    assert.equal(missing.status, 1);
    assert.match(missing.stderr, /^rtk gain: cannot write the page to .*no\/such\/gain\.html: no such folder$/m);
    // A folder where the page should go: it stays, and no temporary file is left beside it.
    const folder = join(b.root, "out");
    mkdirSync(folder);
    writeFileSync(join(folder, "keep"), "x");
    const before = readdirSync(b.root).sort();
    const dir = rtk(b, ["--html", folder]);
    assert.equal(dir.status, 1);
    assert.match(dir.stderr, /cannot write the page to .*out: /);
    assert.deepEqual(readdirSync(b.root).sort(), before);
    assert.deepEqual(readdirSync(folder), ["keep"]);
    // An existing page is replaced whole.
    const file = join(b.root, "gain.html");
    writeFileSync(file, "old");
    page(b);
    assert.match(readFileSync(file, "utf8"), /^<!DOCTYPE html>[^]*<\/html>\n$/);
    assert.match(rtk(b, ["--help"]).stdout, /--html FILE/);
  });

  test("headless Chromium: opens offline with no console error, and every chart draws its data", async (t) => {
    const chromiumPath = "/usr/bin/chromium";
    if (!existsSync(chromiumPath)) {
      if (typeof process.getuid === "function" && process.getuid() === 0) assert.fail(`${chromiumPath} is missing: install Debian's chromium (.ci/run does)`);
      t.skip(`${chromiumPath} is missing and this user cannot install it (apt-get install chromium)`);
      return;
    }
    const b = world();
    page(b);
    const file = join(b.root, "gain.html");
    const { chromium } = await import("@playwright/test");
    const browser = await chromium.launch({
      executablePath: chromiumPath,
      args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
    });
    try {
      const tab = await browser.newPage({ viewport: { width: 1100, height: 900 } });
      const errors: string[] = [];
      const requests: string[] = [];
      tab.on("console", (m) => {
        if (m.type() === "error" || m.type() === "warning") errors.push(m.text());
      });
      tab.on("pageerror", (e) => errors.push(String(e)));
      tab.on("request", (r) => requests.push(r.url()));
      await tab.goto(`file://${file}`, { waitUntil: "load" });
      // In the page (this project's types have no DOM): expressions as text.
      assert.equal(await tab.evaluate(`document.querySelectorAll("script, img, iframe, link").length`), 0);
      assert.ok(((await tab.textContent("#latest")) ?? "").includes(`<script>alert("x")</script>`), "the command shows as text");
      for (const id of ["over-time", "by-route", "hooks", "recalls"]) {
        const marks = Number(
          await tab.evaluate(
            `[...document.querySelectorAll("#${id} svg rect")].filter((r) => { const b = r.getBoundingClientRect(); return b.width > 0 && b.height > 0 && getComputedStyle(r).fill !== "none"; }).length`,
          ),
        );
        assert.ok(marks >= 2, `#${id} draws bars (${marks})`);
        const svg = tab.locator(`#${id} svg`);
        await svg.scrollIntoViewIfNeeded();
        const drawn = await svg.screenshot();
        await tab.evaluate(`for (const r of document.querySelectorAll("#${id} svg rect")) r.style.visibility = "hidden"`);
        const bare = await svg.screenshot();
        assert.ok(!drawn.equals(bare), `#${id}: the bars change the chart's pixels`);
      }
      await tab.screenshot({ path: join(b.root, "page.png"), fullPage: true });
      assert.deepEqual(errors, []);
      assert.deepEqual(requests, [`file://${file}`]);
      // No label runs past its chart's edge: here, and on a page of a single day (one bar).
      page(b, ["--since", new Date(NOW - 3_600_000).toISOString()], "hour.html");
      for (const name of ["gain.html", "hour.html"]) {
        await tab.goto(`file://${join(b.root, name)}`, { waitUntil: "load" });
        const cut = await tab.evaluate(
          `[...document.querySelectorAll("svg text")].filter((t) => { const s = t.ownerSVGElement.getBoundingClientRect(); const r = t.getBoundingClientRect(); return r.left < s.left - 0.5 || r.right > s.right + 0.5; }).map((t) => t.textContent)`,
        );
        assert.deepEqual(cut, [], `${name}: labels cut off at the chart's edge`);
      }
    } finally {
      await browser.close();
    }
  });
});
