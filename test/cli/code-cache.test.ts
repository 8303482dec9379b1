// The V8 code cache of the full CLI bundle: meta-commands load the bundle from a
// snapshot start and compile it with the cache beside that blob. A cache
// V8 takes changes nothing but the time; a damaged or foreign one is not taken, and
// the command answers as without it.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { cacheBeside, compileForCache } from "../../src/cli/code-cache.js";
import { META_COMMANDS } from "../../src/routes/rtk-command.js";
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

  // The launcher starts rtk's own commands from the hot path's blob, where the full CLI takes the
  // parser that heap holds; from the runtime's blob (an older launcher) it builds its own.
  for (const blob of ["rtk.blob", "rtk-run.blob"]) {
    test(`a meta-command started from ${blob} answers the same with the cache, with a damaged one and with none`, () => {
      // A copy of the blob and the full CLI, as the launcher would start them.
      const root = folder();
      mkdirSync(join(root, "bin"));
      mkdirSync(join(root, "dist"));
      for (const f of [blob, "rtk-main.cjs", "rtk-main.cache", "rtk-report.cjs"]) copyFileSync(join(repoRoot, "dist", f), join(root, "dist", f));
      const env = { PATH: process.env["PATH"] ?? "", HOME: root, XDG_CONFIG_HOME: root, XDG_DATA_HOME: root, RTK_SELF: join(root, "bin", "rtk"), RTK_NO_TRACK: "1" };
      const explain = () => spawnSync(process.execPath, ["--snapshot-blob", join(root, "dist", blob), "--", "explain", "git status && ls | head"], { env, encoding: "utf8" });
      const withCache = explain();
      assert.equal(withCache.status, 0, withCache.stderr);
      assert.match(withCache.stdout, /git\.status/);
      writeFileSync(join(root, "dist", "rtk-main.cache"), readFileSync(join(root, "dist", "rtk-main.cache")).subarray(0, 5000));
      const damaged = explain();
      rmSync(join(root, "dist", "rtk-main.cache"));
      const none = explain();
      const plain = spawnSync(process.execPath, [join(repoRoot, "dist", "rtk.cjs"), "explain", "git status && ls | head"], { env, encoding: "utf8" });
      for (const [what, r] of [
        ["damaged", damaged],
        ["none", none],
        ["the plain bundle", plain],
      ] as const) {
        assert.equal(r.status, withCache.status, what);
        assert.equal(r.stdout, withCache.stdout, what);
        assert.equal(r.stderr, withCache.stderr, what);
      }
    });
  }

  test("the launcher starts every command of rtk's own but proxy and --version from the hot path's blob", () => {
    const launcher = readFileSync(join(repoRoot, "bin", "rtk"), "utf8");
    const hot = /^\s*([\w|-]+)\) k=rtk ;;$/m.exec(launcher)?.[1]?.split("|");
    assert.ok(hot, "the launcher's case that picks rtk.blob");
    const own = [...META_COMMANDS].filter((c) => !["proxy", "--version", "-V"].includes(c));
    assert.deepEqual([...hot].sort(), own.sort());
  });
});
