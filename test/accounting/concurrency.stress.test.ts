// Many writers at once (spec/tracking.md, "What is recorded"): 16 processes each
// making their runs of the built rtk while reports ingest the spool, and not one
// record lost or counted twice. The test runner starts this file after the others,
// on its own: its thousands of starts would starve the time-bound tests beside it.
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { after, before, describe, test } from "node:test";
import { ensureBuilt } from "../support/build.js";
import { launch, RTK } from "../support/launch.js";
import { removeSandboxes } from "../support/sandbox.js";
import { box, gainJson, integrity } from "./store-support.js";

before(() => ensureBuilt());
after(removeSandboxes);

describe("ingestion under concurrent writers", () => {
  // RTK_TEST_SPOOL_RUNS: fewer runs per writer where the whole count was already proven on this machine (CI's second Node).
  const runs = Number(process.env["RTK_TEST_SPOOL_RUNS"] ?? 200);
  test(`16 processes × ${runs} runs at once, with reports ingesting meanwhile: exactly ${16 * runs} run records, integrity ok`, async () => {
    const b = box();
    const loop = `i=0; while [ $i -lt ${runs} ]; do "${RTK}" ls >/dev/null || exit 1; i=$((i+1)); done`;
    const writers = Array.from(
      { length: 16 },
      () =>
        new Promise<number | null>((resolve) => {
          const c = spawn("sh", ["-c", loop], { cwd: b.cwd, env: b.env, stdio: "ignore" });
          c.on("close", resolve);
        }),
    );
    // Reports while the writers append: a spool moved aside under an appender loses nothing.
    let reportsRun = 0;
    let writing = true;
    void Promise.all(writers).then(() => (writing = false));
    while (writing) {
      await new Promise((r) => setTimeout(r, 3000));
      const g = await launch(["gain", "--json"], { cwd: b.cwd, env: b.env });
      assert.equal(g.status, 0, g.stderr);
      reportsRun++;
    }
    assert.deepEqual(await Promise.all(writers), new Array(16).fill(0));
    assert.ok(reportsRun >= 1);
    const g = gainJson(b);
    assert.equal(g.totals.runs, 16 * runs);
    assert.equal(g.tornLines, 0);
    assert.equal(integrity(b), "ok");
    // Once more: nothing is counted twice.
    assert.equal(gainJson(b).totals.runs, 16 * runs);
  });
});
