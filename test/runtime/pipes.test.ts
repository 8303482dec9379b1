// Output into a pipe whose reader is slow or leaves early, for every path that
// hands the tool rtk's own stdout (an unrouted tool, --raw, RTK_RAW=1, rtk proxy,
// a followed file, a device read) and for a filtered run. Each case is a bash
// pipeline, as an agent writes it; PIPESTATUS gives rtk's own exit status.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ensureBuilt } from "../support/build.js";
import { RTK } from "../support/launch.js";
import { removeSandboxes, sandbox } from "../support/sandbox.js";

before(ensureBuilt);
after(removeSandboxes);

const b = sandbox("rtk-pipes-", { RTK: RTK });
const BIG = join(b.cwd, "big.txt");
const BIG_LINES = 3_000_000;
writeFileSync(BIG, Array.from({ length: BIG_LINES }, (_, i) => String(i + 1)).join("\n") + "\n");
// A stand-in `git` first on PATH: its `status` prints lines git's filter does not recognise, so the raw output is printed.
const FAKE_BIN = join(b.root, "fake-bin");
mkdirSync(FAKE_BIN);
writeFileSync(join(FAKE_BIN, "git"), `#!/bin/sh\nexec seq 1 $2\n`, { mode: 0o755 });
const fakeGit = { PATH: `${FAKE_BIN}:${b.env["PATH"]}` };
const BIG_BYTES = spawnSync("wc", ["-c", BIG], { encoding: "utf8" }).stdout.trim().split(/\s+/)[0];

/** Runs a bash pipeline; prints the reader's result, then the exit status of each stage. */
function pipeline(script: string, env: Record<string, string> = {}, timeout = 60000): { out: string; statuses: number[]; stderr: string } {
  const r = spawnSync("bash", ["-c", `${script}; echo "status \${PIPESTATUS[*]}"`], { cwd: b.cwd, env: { ...b.env, ...env }, encoding: "utf8", timeout });
  assert.equal(r.error, undefined, String(r.error));
  const lines = r.stdout.trimEnd().split("\n");
  const last = lines.pop()!;
  assert.match(last, /^status /);
  return { out: lines.join("\n").trim(), statuses: last.slice(7).split(" ").map(Number), stderr: r.stderr };
}

const slowReader = "(sleep 0.5; wc -l)";

describe("a slow reader gets every line, and rtk exits as the tool did", () => {
  const cases: [what: string, producer: string, env?: Record<string, string>][] = [
    ["an unrouted tool", `"$RTK" seq 1 ${BIG_LINES}`],
    ["rtk --raw", `"$RTK" --raw seq 1 ${BIG_LINES}`],
    ["RTK_RAW=1 on a routed tool", `"$RTK" cat big.txt`, { RTK_RAW: "1" }],
    ["rtk proxy", `"$RTK" proxy cat big.txt`],
    ["a routed run whose raw output is printed (git status, a stand-in its filter declines)", `"$RTK" git status ${BIG_LINES}`, fakeGit],
    ["a tool run by a path", `"$RTK" /usr/bin/env seq 1 ${BIG_LINES}`],
  ];
  for (const [what, producer, env] of cases) {
    test(`${what}: ${producer.replace('"$RTK"', "rtk")} | ${slowReader}`, () => {
      const r = pipeline(`${producer} | ${slowReader}`, env);
      assert.equal(r.out, String(BIG_LINES), r.stderr);
      assert.deepEqual(r.statuses, [0, 0], r.stderr);
      assert.doesNotMatch(r.stderr, /write error|Resource temporarily unavailable|error writing/);
    });
  }

  test("a followed file (rtk tail -n +1 -f): a reader that lags still gets every line, and rtk ends with the broken pipe's 141 when it leaves", () => {
    const r = pipeline(`"$RTK" tail -n +1 -f big.txt | (sleep 1; head -n ${BIG_LINES} | wc -l)`);
    assert.equal(r.out, String(BIG_LINES), r.stderr);
    assert.deepEqual(r.statuses, [141, 0], r.stderr);
    assert.doesNotMatch(r.stderr, /error writing|Resource temporarily unavailable/);
  });
});

describe("a reader that leaves early: the tool gets SIGPIPE, rtk exits 141", () => {
  for (const producer of [`"$RTK" seq 1 5000000`, `"$RTK" proxy seq 1 5000000`, `"$RTK" --raw seq 1 5000000`, `"$RTK" git status 5000000`]) {
    test(`${producer.replace('"$RTK"', "rtk")} | head -1`, () => {
      const r = pipeline(`${producer} | head -1`, fakeGit);
      assert.equal(r.out, "1");
      assert.deepEqual(r.statuses, [141, 0], r.stderr);
      assert.equal(r.stderr, "");
    });
  }
});

describe("200 MB through a pipe, byte for byte", () => {
  const SIZE = 200_000_000;
  const make = `yes 0123456789abcdefghijklmnopqrstuvwxyz | head -c ${SIZE}`;
  const expected = spawnSync("bash", ["-c", `${make} | sha256sum`], { encoding: "utf8" }).stdout;
  const cases: [what: string, producer: string][] = [
    ["unrouted", `"$RTK" sh -c '${make}'`],
    ["rtk proxy", `"$RTK" proxy sh -c '${make}'`],
    ["rtk --raw", `"$RTK" --raw sh -c '${make}'`],
  ];
  for (const [what, producer] of cases) {
    test(what, { timeout: 120000 }, () => {
      const r = pipeline(`${producer} | (sleep 0.3; sha256sum)`, {}, 110000);
      assert.equal(r.out + "\n", expected, r.stderr);
      assert.deepEqual(r.statuses, [0, 0], r.stderr);
    });
  }

  test("a device read (rtk head -c 200000000 /dev/zero | slow wc -c)", { timeout: 120000 }, () => {
    const r = pipeline(`"$RTK" head -c ${SIZE} /dev/zero | (sleep 0.3; wc -c)`, {}, 110000);
    assert.equal(r.out, String(SIZE), r.stderr);
    assert.deepEqual(r.statuses, [0, 0], r.stderr);
  });

  test("the big file's size is what wc says (the fixture itself)", () => {
    assert.equal(pipeline(`"$RTK" proxy cat big.txt | (sleep 0.3; wc -c)`).out, BIG_BYTES);
  });
});
