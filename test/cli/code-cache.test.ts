// The V8 code cache of the full CLI bundle: meta-commands load the bundle from the
// runtime's snapshot start and compile it with the cache beside that blob. A cache
// V8 takes changes nothing but the time; a damaged or foreign one is not taken, and
// the command answers as without it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { cacheBeside, compileForCache } from "../../src/cli/code-cache.js";
import { ensureBuilt } from "../support/build.js";
import { repoRoot } from "../support/corpus.js";

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function folder(): string {
  const d = mkdtempSync(join(tmpdir(), "rtk-code-cache-test-"));
  made.push(d);
  return d;
}

/** loadCached in a fresh process (one process would find the script in V8's own cache of what it compiled, whatever the file holds). */
function loadInChild(file: string, cache: string): { accepted: boolean | null; name: string; twice: number } {
  const script = `import { loadCached } from ${JSON.stringify(join(repoRoot, "src", "cli", "code-cache.ts"))};
const r = loadCached(process.argv[1], process.argv[2]);
process.stdout.write(JSON.stringify({ accepted: r.accepted, name: r.exports.name(), twice: r.exports.twice(21) }));`;
  const r = spawnSync(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script, file, cache], { cwd: repoRoot, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout) as { accepted: boolean | null; name: string; twice: number };
}

describe("loading a bundle with its code cache", () => {
  let dir: string;
  let file: string;
  let expected: string;
  before(() => {
    dir = folder();
    file = join(dir, "mod.cjs");
    writeFileSync(file, 'const { basename } = require("node:path");\nexports.name = () => basename(__filename) + " in " + basename(__dirname);\nexports.twice = (n) => n * 2;\n');
    expected = `mod.cjs in ${dir.slice(dir.lastIndexOf("/") + 1)}`;
  });

  test("a cache made from the module is taken, and the module works as under require()", () => {
    const made = compileForCache(file);
    assert.equal((made.exports as { twice(n: number): number }).twice(21), 42);
    const cache = join(dir, "mod.cache");
    made.save(cache);
    assert.equal(statSync(cache).mode & 0o777, 0o600);
    assert.deepEqual(readdirSync(dir).sort(), ["mod.cache", "mod.cjs"], "no temporary file left");
    assert.deepEqual(loadInChild(file, cache), { accepted: true, name: expected, twice: 42 });
  });

  test("a damaged, truncated, empty or missing cache is not taken: the module still loads", () => {
    const good = readFileSync(join(dir, "mod.cache"));
    for (const [what, bytes] of [
      ["random bytes", Buffer.from("not a code cache at all, just some text\n".repeat(20))],
      ["truncated", good.subarray(0, Math.floor(good.length / 2))],
      ["empty", Buffer.alloc(0)],
    ] as const) {
      const cache = join(dir, "bad.cache");
      writeFileSync(cache, bytes);
      const loaded = loadInChild(file, cache);
      assert.notEqual(loaded.accepted, true, what);
      assert.deepEqual({ name: loaded.name, twice: loaded.twice }, { name: expected, twice: 42 }, what);
    }
    assert.deepEqual(loadInChild(file, join(dir, "absent.cache")), { accepted: null, name: expected, twice: 42 });
  });

  test("the cache's place is beside the snapshot blob the process started from", () => {
    assert.equal(cacheBeside(["--snapshot-blob", "/a/b/rtk-run.blob"], "/x/dist/rtk-main.cjs"), "/a/b/rtk-main.cache");
    assert.equal(cacheBeside(["--snapshot-blob=/a/b/rtk-run.blob"], "/x/dist/rtk-main.cjs"), "/a/b/rtk-main.cache");
    assert.equal(cacheBeside([], "/x/dist/rtk-main.cjs"), null);
  });
});

describe("the checkout's build", () => {
  before(() => ensureBuilt());

  test("has code caches of the full CLI and the reports that this Node takes", () => {
    // Checked with V8 directly, as the start does: compile the bundle's module wrapper with the cache.
    const check = `const vm = require("node:vm"), fs = require("node:fs"), Module = require("node:module");
const [bundle, cache] = process.argv.slice(1);
const s = new vm.Script(Module.wrap(fs.readFileSync(bundle, "utf8")), { filename: bundle, cachedData: fs.readFileSync(cache) });
process.stdout.write(s.cachedDataRejected ? "rejected" : "taken");`;
    for (const name of ["rtk-main", "rtk-report"]) {
      const r = spawnSync(process.execPath, ["-e", check, join(repoRoot, "dist", `${name}.cjs`), join(repoRoot, "dist", `${name}.cache`)], { encoding: "utf8" });
      assert.equal(r.stdout, "taken", `${name}: ${r.stderr}`);
    }
  });

  test("a meta-command answers the same with the cache, with a damaged one and with none", () => {
    // A copy of the runtime's blob and the full CLI, as the launcher would start them.
    const root = folder();
    mkdirSync(join(root, "bin"));
    mkdirSync(join(root, "dist"));
    for (const f of ["rtk-run.blob", "rtk-main.cjs", "rtk-main.cache", "rtk-report.cjs"]) copyFileSync(join(repoRoot, "dist", f), join(root, "dist", f));
    const env = { PATH: process.env["PATH"] ?? "", HOME: root, XDG_CONFIG_HOME: root, XDG_DATA_HOME: root, RTK_SELF: join(root, "bin", "rtk"), RTK_NO_TRACK: "1" };
    const help = () => spawnSync(process.execPath, ["--snapshot-blob", join(root, "dist", "rtk-run.blob"), "--", "explain", "git status"], { env, encoding: "utf8" });
    const withCache = help();
    assert.equal(withCache.status, 0, withCache.stderr);
    assert.match(withCache.stdout, /git\.status/);
    writeFileSync(join(root, "dist", "rtk-main.cache"), readFileSync(join(root, "dist", "rtk-main.cache")).subarray(0, 5000));
    const damaged = help();
    rmSync(join(root, "dist", "rtk-main.cache"));
    const none = help();
    for (const [what, r] of [
      ["damaged", damaged],
      ["none", none],
    ] as const) {
      assert.equal(r.status, withCache.status, what);
      assert.equal(r.stdout, withCache.stdout, what);
      assert.equal(r.stderr, withCache.stderr, what);
    }
  });
});
