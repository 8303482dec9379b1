// The hot path's limits do not depend on the machine's load: every input of the
// shared corpora, and generated scripts on both sides of the budget, get the
// same outcome (read, or refused and why) with the machine as it is and with
// every core kept busy by other processes. The test runner starts this file
// after the others, on its own.
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { availableParallelism } from "node:os";
import { describe, test } from "node:test";
import { rewrite } from "../../src/api.js";
import { generateScript } from "../../bench/inputs/generate-script.js";
import { corpusAvailable, corpusInputs } from "../support/corpus.js";

const skip = corpusAvailable() ? false : "corpus not found (../shared/corpus)";

describe("the rewrite's limits under load", { skip }, () => {
  test("the corpus reads alike on a quiet machine and with every core busy", async () => {
    const inputs = [...corpusInputs().map((c) => c.src), ...[2, 10, 20, 30].map((kb) => generateScript(kb << 10))];
    const outcomes = () =>
      inputs.map((src) => {
        const r = rewrite(src, { env: {}, cwd: "/", warn: () => {} });
        return r.parse.ok ? `ok ${r.exitCode}` : `${r.parse.error.limit ?? "error"}: ${r.parse.error.message}`;
      });
    const quiet = outcomes();
    const hogs: ChildProcess[] = Array.from({ length: availableParallelism() + 1 }, () => spawn(process.execPath, ["-e", "for (;;) {}"], { stdio: "ignore" }));
    try {
      await new Promise((r) => setTimeout(r, 500));
      const busy = outcomes();
      const flipped = inputs.flatMap((src, i) => (busy[i] === quiet[i] ? [] : [`${JSON.stringify(src.slice(0, 60))}: quiet ${quiet[i]}, busy ${busy[i]}`]));
      assert.deepEqual(flipped, []);
    } finally {
      for (const h of hogs) h.kill("SIGKILL");
    }
    assert.ok(
      quiet.some((o) => o.startsWith("time:")),
      "some generated script is over the budget",
    );
  });
});
