// Exact token counts where the text exists: a run whose raw output the recall
// store still holds is counted with the o200k tokenizer when a report ingests
// it; a run without one keeps the estimate from its features; `rtk gain --json`
// says which is which.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { appendFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { charsOf, estimateTokens, savedTokens } from "../../src/accounting/tokens.js";
import type { RunRecord } from "../../src/accounting/types.js";
import { ensureBuilt } from "../support/build.js";
import { launchSync } from "../support/launch.js";
import { removeSandboxes, sandbox } from "../support/sandbox.js";

before(() => ensureBuilt());
after(removeSandboxes);

interface Hist {
  route: string;
  recallId: string | null;
  rawTokens: number;
  outTokens: number;
  savedTokens: number;
  exact: boolean;
}

test("a run whose raw output is in the recall store gets the exact o200k count; one without, the estimate", () => {
  const box = sandbox("rtk-exact-", { TZ: "UTC" });
  const repo = join(box.cwd, "repo");
  mkdirSync(repo);
  spawnSync("git", ["init", "-q", "."], { cwd: repo, env: box.env });
  // Names whose tokens the byte-class estimate cannot know: the exact count differs from it.
  for (let i = 0; i < 40; i++) writeFileSync(join(repo, `überlange-Datei-${i}-${"ab".repeat(i % 7)}.txt`), `${i}\n`);
  mkdirSync(join(box.config, "rtk"), { recursive: true });
  writeFileSync(join(box.config, "rtk", "config.toml"), "[limits]\nlist_tokens = 20\n");
  const r = launchSync(["git", "status"], { cwd: repo, env: box.env });
  assert.equal(r.status, 0, r.stderr);
  const spool = join(box.data, "rtk", "spool.jsonl");
  const ran = JSON.parse(readFileSync(spool, "utf8").trim()) as RunRecord;
  assert.ok(ran.recallId, "the compact form hid items behind a recall handle");
  const raw = readFileSync(join(box.recall, `${ran.recallId}.txt`));
  assert.equal(raw.length, ran.rawBytes, "the recall entry is the whole raw output");
  // The same run again, its recall entry gone: estimated.
  const gone: RunRecord = { ...ran, time: ran.time + 1, recallId: "zzzzzzzz" };
  appendFileSync(spool, JSON.stringify(gone) + "\n");

  const g = launchSync(["gain", "--json", "--history", "5"], { cwd: repo, env: box.env });
  assert.equal(g.status, 0, g.stderr);
  const j = JSON.parse(g.stdout) as { totals: { runs: number; exactRuns: number }; routes: { route: string; exactRuns: number }[]; history: Hist[] };
  assert.deepEqual([j.totals.runs, j.totals.exactRuns], [2, 1]);
  assert.equal(j.routes.find((x) => x.route === ran.route)?.exactRuns, 1);
  const [estimated, exact] = j.history;
  const exactCount = countTokens(raw.toString("utf8"));
  const estimate = estimateTokens(ran.rawFeatures, ran.rawBytes);
  assert.notEqual(exactCount, estimate, "the test tells the two apart");
  const out = estimateTokens(ran.outFeatures, ran.outBytes);
  assert.deepEqual(exact, {
    ...exact!,
    recallId: ran.recallId,
    exact: true,
    rawTokens: exactCount,
    outTokens: out,
    savedTokens: savedTokens({ fellBack: ran.fellBack, rawTokens: exactCount, rawChars: raw.toString("utf8").length, outTokens: out }),
  });
  assert.deepEqual(estimated, {
    ...estimated!,
    recallId: "zzzzzzzz",
    exact: false,
    rawTokens: estimate,
    outTokens: out,
    savedTokens: savedTokens({ fellBack: ran.fellBack, rawTokens: estimate, rawChars: charsOf(ran.rawFeatures, ran.rawBytes), outTokens: out }),
  });
  assert.match(launchSync(["gain"], { cwd: repo, env: box.env }).stdout, /^raw tokens counted exactly: 1 run .*, estimated: 1$/m);
});
