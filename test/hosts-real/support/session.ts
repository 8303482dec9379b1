// One session of a real host over a script of commands, with or without rtk,
// and what came of each command: did it run, was approval needed or was it
// denied, what did the model receive, and did rtk rewrite and record it.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Dialect, Received } from "./model.js";
import { ModelServer } from "./model.js";
import { scratch, type Scratch } from "./sandbox.js";

export type Fate = "ran" | "asked" | "denied" | "error";

export interface CommandOutcome {
  command: string;
  fate: Fate;
  /** What the model received as the tool's result. */
  received: string;
  /** The command rtk's hook handed back, when it rewrote it. */
  rewritten: string | null;
  /** rtk recorded a run of a rewritten command. */
  recorded: boolean;
}

export interface SessionResult {
  outcomes: CommandOutcome[];
  /** Every request the model stand-in received. */
  requests: { path: string; body: unknown }[];
  /** Lines the host printed that say a hook failed. */
  hookErrors: string[];
  /** The host's own output, for a failing test's message. */
  log: string;
}

/** How one host is driven: installed, configured and run headless against the model stand-in. */
export interface HostDriver {
  /** rtk's name for the host (`rtk init --agent <name>`). */
  name: string;
  dialect: Dialect;
  /** Runs the host once over the script (the model stand-in listens at `baseUrl`); resolves when it exits. */
  run(s: Scratch, baseUrl: string, opts: SessionOptions): Promise<{ status: number | null; stdout: string; stderr: string }>;
  /** The fate of each tool call, by its id, read from the host's own output and what the model received. */
  fates(stdout: string, results: readonly Received[]): ReadonlyMap<string, Fate>;
  /** Lines of the host's output that report a failing hook. */
  hookErrors?(stdout: string, stderr: string): string[];
  /** Where the scratch HOME is made (scratch()'s `base`). */
  scratchBase?: string;
  /** The command each tool call ran, by its id, where the host's output tells it (else rtk's hook records say what rtk handed back). */
  commandsRun?(stdout: string): ReadonlyMap<string, string>;
}

export interface SessionOptions {
  /** The host's permission mode, where it has them. */
  mode?: string;
  /** Written into the scratch HOME before the host starts (path relative to HOME → content). */
  files?: Record<string, string>;
  /** Whether the user has approved rtk's hook where the host asks for that (default true). */
  trustHook?: boolean;
  /** Called with the scratch HOME once the host has exited, before it is removed (to run `rtk doctor` there, say). */
  inspect?: (s: Scratch) => void;
}

/** Spawns `bin args` as the sandbox user, collecting output; killed after `timeoutMs`. */
export function spawnAs(s: Scratch, bin: string, args: readonly string[], env: Record<string, string>, timeoutMs = 600_000): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(bin, args, { cwd: s.repo, env: { ...s.env, ...env }, uid: s.account.uid, gid: s.account.gid, stdio: ["ignore", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("close", (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ status: null, stdout, stderr: stderr + String(e) });
    });
  });
}

/**
 * Runs one session: a fresh scratch HOME, rtk's hook installed when `withRtk`,
 * the host over `commands`. A host that ends its run before the script does (a
 * refusal that stops the turn) is started again, in the same HOME, from the
 * command after the last one it was asked for.
 */
export async function session(driver: HostDriver, commands: readonly string[], opts: SessionOptions & { withRtk: boolean; init?: string[] }): Promise<SessionResult> {
  const s = scratch({ withRtk: opts.withRtk, base: driver.scratchBase });
  try {
    if (opts.withRtk) {
      const r = s.run(join(s.bin, "rtk"), ["init", "--agent", driver.name, ...(opts.init ?? [])]);
      if (r.status !== 0) throw new Error(`rtk init --agent ${driver.name}: ${r.stdout}${r.stderr}`);
    }
    for (const [p, text] of Object.entries(opts.files ?? {})) s.put(join(s.home, p), text);
    const asked: { id: string | undefined; got: Received | undefined; fate: Fate; ran: string | undefined }[] = [];
    const requests: SessionResult["requests"] = [];
    const hookErrors: string[] = [];
    let log = "";
    while (asked.length < commands.length) {
      const server = new ModelServer(driver.dialect, commands.slice(asked.length));
      try {
        const url = await server.start();
        const run = await driver.run(s, url, opts);
        log += `exit ${run.status}\n--- stdout\n${run.stdout.slice(-20000)}\n--- stderr\n${run.stderr.slice(-5000)}\n`;
        const fates = driver.fates(run.stdout, server.results);
        const told = driver.commandsRun?.(run.stdout);
        requests.push(...server.requests);
        hookErrors.push(...(driver.hookErrors?.(run.stdout, run.stderr) ?? []));
        const before = asked.length;
        for (const [k, id] of server.issued.entries()) asked.push({ id, got: server.results[k], fate: (id && fates.get(id)) || "error", ran: id ? told?.get(id) : undefined });
        // Nothing asked for at all: the host does not start; the rest cannot be judged.
        if (asked.length === before) while (asked.length < commands.length) asked.push({ id: undefined, got: undefined, fate: "error", ran: undefined });
      } finally {
        await server.stop();
      }
    }
    const records = spoolRecords(s);
    const hooks = records.filter((r) => r["kind"] === "hook");
    const runs = records.filter((r) => r["kind"] === "run");
    // A rewritten command's runs are recorded in order: one record per `rtk` the rewrite inserted. Where the host's
    // output says what ran (calls run side by side, records interleaved), at least one record per command that ran.
    const toldAll = !!driver.commandsRun;
    // A host whose hook events carry no call id (Gemini CLI's): its records are claimed by the command, once each.
    const claimed = new Set<Record<string, unknown>>();
    const unclaimed = (command: string) => {
      const h = hooks.find((r) => (r["toolUseId"] ?? null) === null && r["command"] === command && !claimed.has(r));
      if (h) claimed.add(h);
      return h;
    };
    let runAt = 0;
    const outcomes: CommandOutcome[] = commands.map((command, i) => {
      const { id, got, fate, ran } = asked[i]!;
      const hook = id && !toldAll ? (hooks.find((h) => h["toolUseId"] === id) ?? unclaimed(command)) : undefined;
      const rewritten = toldAll ? (ran !== undefined && ran !== command ? ran : null) : hook && typeof hook["rewritten"] === "string" ? (hook["rewritten"] as string) : null;
      let recorded = false;
      if (rewritten !== null && fate === "ran") {
        const n = toldAll ? 1 : rewritten.split(/(?:^|[^\w-])rtk /).length - 1 - (command.split(/(?:^|[^\w-])rtk /).length - 1);
        recorded = runs.slice(runAt, runAt + n).length === n && n > 0;
        runAt += n;
      }
      return { command, fate, received: got?.text ?? "", rewritten, recorded };
    });
    opts.inspect?.(s);
    return { outcomes, requests, hookErrors, log };
  } finally {
    if (!process.env["RTK_REAL_HOSTS_KEEP"]) s.dispose();
  }
}

/** rtk's spool in the scratch HOME, record by record. */
export function spoolRecords(s: Scratch): Record<string, unknown>[] {
  const path = join(s.env["XDG_DATA_HOME"]!, "rtk", "spool.jsonl");
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter(Boolean)
    .flatMap((l) => {
      try {
        return [JSON.parse(l) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
}
