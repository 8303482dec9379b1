// Many short runs of one command (bash -n, shfmt) over many texts, from one bash process.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/**
 * `command` run once for each text by one bash process (a process start from it costs a fraction of
 * one from Node), with the text's file as $f: each run's exit status, stdout and stderr.
 */
export function eachInShell(command: string, texts: readonly string[]): { status: number; stdout: string; stderr: string }[] {
  const dir = mkdtempSync(join(tmpdir(), "rtk-corpus-"));
  try {
    const names = texts.map((text, i) => {
      writeFileSync(join(dir, String(i)), text);
      return String(i);
    });
    const loop = `cd "$1" && shift; for f; do ${command} >"$f.out" 2>"$f.err"; echo $? >"$f.status"; done`;
    const r = spawnSync("bash", ["-c", loop, "bash", dir, ...names], { encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    const read = (f: string) => readFileSync(join(dir, f), "utf8");
    return names.map((f) => ({ status: Number(read(`${f}.status`)), stdout: read(`${f}.out`), stderr: read(`${f}.err`) }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
