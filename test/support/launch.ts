// Spawning the built launcher from async tests: a few at a time (each start
// costs a Node start-up), stdout and stderr collected, and one retry path for a
// rebuild of dist/ racing the run.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { repoRoot } from "./corpus.js";

export const RTK = join(repoRoot, "bin", "rtk");

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

let running = 0;
const waiting: (() => void)[] = [];

async function slot<T>(fn: () => Promise<T>): Promise<T> {
  if (running >= 4) await new Promise<void>((r) => waiting.push(r));
  running++;
  try {
    return await fn();
  } finally {
    running--;
    waiting.shift()?.();
  }
}

/** Another session rebuilding dist/ can make the launcher miss its startup snapshot for a moment. */
const REBUILD_RACE = /Cannot open .*dist\/rtk\.blob|dist\/rtk\.cjs/;

/** Runs `bin/rtk args…`; `input` (if any) is written to its stdin. */
export async function launch(args: string[], opts: { cwd: string; env: Record<string, string>; input?: string | Buffer }): Promise<Run> {
  for (let attempt = 0; ; attempt++) {
    const r = await slot(() => once(args, opts));
    if (attempt >= 3 || !REBUILD_RACE.test(r.stderr)) return r;
    await new Promise((res) => setTimeout(res, 300));
  }
}

function once(args: string[], opts: { cwd: string; env: Record<string, string>; input?: string | Buffer }): Promise<Run> {
  return new Promise<Run>((resolve, reject) => {
    const child = spawn(RTK, args, { cwd: opts.cwd, env: opts.env, stdio: [opts.input === undefined ? "ignore" : "pipe", "pipe", "pipe"] });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    child.stdout!.on("data", (c: Buffer) => out.push(c));
    child.stderr!.on("data", (c: Buffer) => err.push(c));
    child.on("error", reject);
    child.on("close", (status) => resolve({ status, stdout: Buffer.concat(out).toString("utf8"), stderr: Buffer.concat(err).toString("utf8") }));
    if (child.stdin) {
      // rtk stops reading an event over 1 MiB: the rest of the write may hit a closed pipe.
      child.stdin.on("error", () => {});
      child.stdin.end(opts.input);
    }
  });
}
