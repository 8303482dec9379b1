// The library as the README shows it: its example run against the built
// dist/lib.cjs, in a folder and HOME where the host has no rules of its own,
// gives the values the README's comments say.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, test } from "node:test";
import { ensureBuilt } from "./support/build.js";
import { repoRoot } from "./support/corpus.js";
import { removeSandboxes, sandbox } from "./support/sandbox.js";

before(() => ensureBuilt());
after(removeSandboxes);

test("the README's library example gives what its comments say", () => {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const block = /## Library[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)?.[1];
  assert.ok(block, "the README has a library example");
  const call = /const r = (rewrite\(.*\));/.exec(block)?.[1];
  assert.ok(call, block);
  // `r.key; // value …`: the value is the comment's first JSON word.
  const said = [...block.matchAll(/^r\.(\w+); \/\/ ("[^"]*"|-?\d+|null)/gm)].map((m) => [m[1]!, JSON.parse(m[2]!) as unknown] as const);
  assert.ok(said.length >= 3, block);
  const box = sandbox("rtk-lib-");
  const script = `const { rewrite } = require(${JSON.stringify(join(repoRoot, "dist", "lib.cjs"))}); const r = ${call}; process.stdout.write(JSON.stringify(r));`;
  const run = spawnSync(process.execPath, ["-e", script], { cwd: box.cwd, env: box.env, encoding: "utf8" });
  assert.equal(run.status, 0, run.stderr);
  const r = JSON.parse(run.stdout) as Record<string, unknown>;
  for (const [key, value] of said) assert.deepEqual(r[key], value, `r.${key}`);
});
