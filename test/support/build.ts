// Tests run against the built artifact. `npm test` builds once before any test
// file runs (and says so in RTK_TEST_BUILT); a file run on its own builds here.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { repoRoot } from "./corpus.js";

export function ensureBuilt(): void {
  if (process.env["RTK_TEST_BUILT"] === "1") return;
  const b = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, encoding: "utf8" });
  assert.equal(b.status, 0, `build failed: ${b.stderr}`);
  process.env["RTK_TEST_BUILT"] = "1";
}
