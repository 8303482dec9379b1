// The container, cluster, GitHub and infrastructure filters on their fixtures
// (test/fixtures/tools: terraform recorded from the real tool by `npm run
// fixtures`; docker, podman, kubectl, helm and gh written from their
// documented formats), each played through the built bin/rtk with the tool
// stood in on PATH and checked: golden compact output, every fact of the raw
// output (read by services-facts.ts, not by the filters), the tool's exit
// code, never longer than the raw output.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { before, describe, test } from "node:test";
import { repoRoot } from "../support/corpus.js";
import { launch, type Run } from "../support/launch.js";
import { filterOf, replay, toolCases, type ToolCase } from "../support/replay.js";
import { factsOf, linesStoodFor, lostFacts } from "./services-facts.js";

const GOLDEN = join(repoRoot, "test", "filters", "golden", "services");
const UPDATE = process.env["RTK_UPDATE_GOLDEN"] === "1";
export const SERVICE_TOOLS = ["docker", "podman", "kubectl", "helm", "gh", "terraform"];

before(() => {
  if (process.env["RTK_TEST_BUILT"] !== "1") {
    const b = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, encoding: "utf8" });
    assert.equal(b.status, 0, `build failed: ${b.stderr}`);
  }
});

const normalise = (text: string) => text.replace(/rtk recall [0-9a-f]{7}/g, "rtk recall <id>");

const runs = new Map<string, Promise<Run>>();
const played = (c: ToolCase) => {
  let r = runs.get(c.name);
  if (!r) runs.set(c.name, (r = replay(c)));
  return r;
};

const cases = SERVICE_TOOLS.flatMap((t) => toolCases(t));
const named = (name: string) => cases.find((c) => c.name === name)!;

for (const c of cases) {
  describe(c.name, () => {
    test("the exit code is the tool's", async () => {
      const r = await played(c);
      assert.equal(r.status, c.exit, r.stderr);
    });

    test("golden compact output", async () => {
      const r = await played(c);
      const text = `$ rtk ${c.argv.join(" ")}\nexit ${r.status}\n--- stdout\n${normalise(r.stdout)}--- stderr\n${normalise(r.stderr)}`;
      const file = join(GOLDEN, `${c.name}.txt`);
      if (UPDATE || !existsSync(file)) {
        mkdirSync(join(file, ".."), { recursive: true });
        writeFileSync(file, text);
      }
      assert.equal(text, readFileSync(file, "utf8"));
    });

    test("every fact of the raw output is kept", async () => {
      const r = await played(c);
      assert.deepEqual(lostFacts(r.stdout + r.stderr, factsOf(c, filterOf(c))), []);
    });

    if (filterOf(c) === "logs") {
      test("every line of the log is shown, counted in a repeat, or behind a marker", async () => {
        const r = await played(c);
        const count = (t: string) => t.split("\n").length - (t.endsWith("\n") || t === "" ? 1 : 0);
        assert.equal(linesStoodFor(r.stdout), count(c.stdout));
        assert.equal(linesStoodFor(r.stderr), count(c.stderr));
      });
    }

    test("never longer than the raw output", async () => {
      const r = await played(c);
      const raw = Buffer.byteLength(c.stdout) + Buffer.byteLength(c.stderr);
      const compact = Buffer.byteLength(r.stdout) + Buffer.byteLength(r.stderr);
      assert.ok(compact <= raw, `compact ${compact} bytes > raw ${raw} bytes`);
    });
  });
}
