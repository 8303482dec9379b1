// The one way tests run the built launcher, `bin/rtk`: asynchronously (a few at
// a time, each start costs a Node start-up) or synchronously, stdout and stderr
// collected, and one retry path for a rebuild of dist/ racing the run.
import { spawn, spawnSync, type SpawnSyncReturns } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "./corpus.js";

export const RTK = join(repoRoot, "bin", "rtk");

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

export interface LaunchOptions {
  cwd: string;
  env: Record<string, string>;
  /** Written to stdin; without it, stdin is empty (sync) or closed (async). */
  input?: string | Buffer;
  /** Sync runs only: killed after this many ms (default 60 s). */
  timeout?: number;
  /** Sync runs only: the most output kept (default 256 MiB). */
  maxBuffer?: number;
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
const REBUILD_RACE = /Cannot open .*dist\/rtk\.blob|dist\/rtk\.cjs|rtk\.blob\.node/;
const ATTEMPTS = 4;
const PAUSE_MS = 300;

/** Runs `bin/rtk args…`; `input` (if any) is written to its stdin. */
export async function launch(args: readonly string[], opts: LaunchOptions): Promise<Run> {
  for (let attempt = 1; ; attempt++) {
    const r = await slot(() => once(args, opts));
    if (attempt >= ATTEMPTS || !REBUILD_RACE.test(r.stderr)) return r;
    await new Promise((res) => setTimeout(res, PAUSE_MS));
  }
}

/** Runs `bin/rtk args…` and waits for it (for tests that need the whole spawnSync result: signal, error). */
export function launchSync(args: readonly string[], opts: LaunchOptions): SpawnSyncReturns<string> {
  return retryingRebuildRace(() =>
    spawnSync(RTK, args, {
      cwd: opts.cwd,
      env: opts.env,
      input: opts.input ?? "",
      encoding: "utf8",
      timeout: opts.timeout ?? 60_000,
      maxBuffer: opts.maxBuffer ?? 256 * 1024 * 1024,
    }),
  );
}

/** Runs `run` again while its stderr shows a rebuild of dist/ racing it: for rtk started some other way (a host's hook command). */
export function retryingRebuildRace<T extends { stderr: string | Buffer }>(run: () => T): T {
  for (let attempt = 1; ; attempt++) {
    const r = run();
    if (attempt >= ATTEMPTS || !REBUILD_RACE.test(String(r.stderr))) return r;
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, PAUSE_MS);
  }
}

function once(args: readonly string[], opts: LaunchOptions): Promise<Run> {
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

/** A profile in `home` that puts this rtk on the login shell's PATH, as a user's does (Codex runs commands in a login shell). */
export function loginProfile(home: string): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, ".profile"), `PATH="${join(repoRoot, "bin")}:$PATH"\n`);
}
