// Codex CLI, headless, its model replaced by the Responses API stand-in (a
// custom model provider in $CODEX_HOME/config.toml; no network). A mode is
// `<approval policy>/<sandbox mode>`: `never/…` runs `codex exec --json`, which
// never asks (exec always runs with the approval policy `never`); the other
// policies run `codex app-server` over stdio, the protocol Codex's own clients
// speak, and every approval Codex requests is declined and counted as asked.
//
// Codex runs a hook only once the user has trusted it (`/hooks` in its TUI,
// which stores the hook's hash under `[hooks.state]` in config.toml); the
// session does that step as Codex's TUI does, through the app server's
// `hooks/list` and `config/batchWrite`, unless `trustHook` is false.
import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { installed, type HostPackage } from "../support/packages.js";
import { openaiResponses } from "../support/openai-responses.js";
import type { Received } from "../support/model.js";
import type { Scratch } from "../support/sandbox.js";
import { spawnAs, type Fate, type HostDriver } from "../support/session.js";

export const CODEX_PACKAGE: HostPackage = { name: "@openai/codex", version: "0.171.0", bin: "node_modules/.bin/codex" };

/** A model Codex's catalogue knows (an unknown one costs a warning item on every run). */
const MODEL = "gpt-5.5";

/** How long one session may take: the whole corpus through a hook on a loaded machine takes minutes. */
const SESSION_MS = 20 * 60_000;

/** Codex's sandbox lets commands write to /tmp: the scratch HOME lives elsewhere, where a user's would. */
const SCRATCH_BASE = process.env["RTK_REAL_HOSTS_SCRATCH"] || "/var/tmp/rtk-real-hosts";

export const CODEX_MODES = {
  approvals: ["never", "on-request", "untrusted"],
  sandboxes: ["read-only", "workspace-write", "danger-full-access"],
} as const;

export function codexDriver(): HostDriver | { error: string } {
  const pkg = installed(CODEX_PACKAGE);
  if ("error" in pkg) return pkg;
  return {
    name: "codex",
    dialect: openaiResponses,
    scratchBase: SCRATCH_BASE,
    async run(s, baseUrl, opts) {
      const [approval, sandbox] = (opts.mode ?? "never/workspace-write").split("/") as [string, string];
      const codexHome = join(s.home, ".codex");
      s.put(join(codexHome, "config.toml"), providerConfig(baseUrl, readConfig(codexHome)));
      const env = { CODEX_HOME: codexHome, RTK_CODEX_TEST_KEY: "sk-test" };
      if (opts.trustHook !== false) {
        const trusted = await trustHooks(s, pkg.bin, env);
        if (trusted.error) return { status: null, stdout: "", stderr: `trusting the hooks: ${trusted.error}` };
      }
      if (approval === "never") {
        const args = ["exec", "--json", "--skip-git-repo-check", "--ephemeral", "-s", sandbox, "Run the commands you are given."];
        return spawnAs(s, pkg.bin, args, env, SESSION_MS);
      }
      return appServerTurn(s, pkg.bin, env, { approvalPolicy: approval, sandbox });
    },
    fates: codexFates,
    hookErrors(stdout, stderr) {
      const out: string[] = [];
      for (const m of jsonLines(stdout)) {
        // exec: a hook that fails or answers what Codex cannot read is an `error` item; the app server sends hook/completed.
        const item = m["item"] as { type?: string; message?: string } | undefined;
        if (m["type"] === "item.completed" && item?.type === "error" && /hook/i.test(item.message ?? "")) out.push(item.message ?? "");
        const run = (m["params"] as { run?: { status?: string; entries?: { kind?: string; text?: string }[] } } | undefined)?.run;
        if (m["method"] === "hook/completed" && run && (run.status !== "completed" || run.entries?.some((e) => e.kind === "error"))) out.push(JSON.stringify(run).slice(0, 300));
      }
      if (/hook/i.test(stderr) && /error|fail/i.test(stderr)) out.push(...stderr.split("\n").filter((l) => /hook/i.test(l) && /error|fail/i.test(l)));
      return out;
    },
  };
}

function readConfig(codexHome: string): string {
  try {
    return readFileSync(join(codexHome, "config.toml"), "utf8");
  } catch {
    return "";
  }
}

/** The user's config with the stand-in as its model provider (ahead of any table, so the keys stay top-level). */
function providerConfig(baseUrl: string, existing: string): string {
  return [
    `model = "${MODEL}"`,
    `model_provider = "rtk-test"`,
    `check_for_update_on_startup = false`,
    existing.trim(),
    `[model_providers.rtk-test]`,
    `name = "rtk-test"`,
    `base_url = "${baseUrl}/v1"`,
    `wire_api = "responses"`,
    `env_key = "RTK_CODEX_TEST_KEY"`,
    `request_max_retries = 0`,
    `stream_max_retries = 0`,
    // /tmp is no writable root of the sandbox: Codex would leave its placeholders for the
    // folders it protects there (`.git`, `.codex`, `.agents`), making /tmp look like a project.
    `[sandbox_workspace_write]`,
    `exclude_slash_tmp = true`,
    "",
  ].join("\n");
}

// ---- the app server -------------------------------------------------------------------------

interface Rpc {
  call(method: string, params: unknown): Promise<Record<string, unknown>>;
  notify(method: string): void;
  reply(id: unknown, result: unknown): void;
  /** Every message the server sent, one JSON text a line. */
  lines: string[];
  onMessage(fn: (m: Record<string, unknown>) => void): void;
  close(): Promise<{ status: number | null; stderr: string }>;
}

function appServer(s: Scratch, bin: string, env: Record<string, string>): Rpc {
  const child = spawn(bin, ["app-server"], { cwd: s.repo, env: { ...s.env, ...env }, uid: s.account.uid, gid: s.account.gid, stdio: ["pipe", "pipe", "pipe"] });
  let stderr = "";
  child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
  const pending = new Map<number, (v: Record<string, unknown>) => void>();
  const listeners: ((m: Record<string, unknown>) => void)[] = [];
  const lines: string[] = [];
  let ids = 0;
  const exited = new Promise<number | null>((r) => child.on("close", r));
  child.on("error", (e) => (stderr += String(e)));
  createInterface({ input: child.stdout }).on("line", (line) => {
    lines.push(line);
    let m: Record<string, unknown>;
    try {
      m = JSON.parse(line) as Record<string, unknown>;
    } catch {
      return;
    }
    if (m["id"] !== undefined && m["method"] === undefined) {
      pending.get(m["id"] as number)?.((m["result"] as Record<string, unknown>) ?? { error: m["error"] });
      return;
    }
    for (const l of listeners) l(m);
  });
  const write = (m: object) => child.stdin.write(JSON.stringify(m) + "\n");
  return {
    call: (method, params) =>
      new Promise((resolve) => {
        const id = ++ids;
        pending.set(id, resolve);
        write({ id, method, params });
      }),
    notify: (method) => write({ method }),
    reply: (id, result) => write({ id, result }),
    lines,
    onMessage: (fn) => listeners.push(fn),
    async close() {
      child.stdin.end();
      const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
      const status = await exited;
      clearTimeout(timer);
      return { status, stderr };
    },
  };
}

async function initialized(rpc: Rpc): Promise<void> {
  await rpc.call("initialize", { clientInfo: { name: "rtk-real-host", title: null, version: "0" }, capabilities: null });
  rpc.notify("initialized");
}

/** Trusts every hook Codex lists for the repository, as its `/hooks` review does: the hook's current hash, stored by its key. */
export async function trustHooks(s: Scratch, bin: string, env: Record<string, string>): Promise<{ error?: string; keys: string[] }> {
  const rpc = appServer(s, bin, env);
  try {
    await initialized(rpc);
    const listed = await rpc.call("hooks/list", { cwds: [s.repo] });
    const hooks = ((listed["data"] as { hooks?: { key: string; currentHash: string; trustStatus: string }[] }[] | undefined)?.[0]?.hooks ?? []).filter((h) => h.trustStatus !== "managed");
    if (!hooks.length) return { keys: [] };
    const edits = hooks.map((h) => ({ keyPath: `hooks.state.${JSON.stringify(h.key)}.trusted_hash`, value: h.currentHash, mergeStrategy: "upsert" }));
    const wrote = await rpc.call("config/batchWrite", { edits });
    if (wrote["status"] !== "ok") return { error: JSON.stringify(wrote), keys: [] };
    return { keys: hooks.map((h) => h.key) };
  } finally {
    await rpc.close();
  }
}

/** Codex's own account of its hooks for the repository (`hooks/list`): key, hash and trust status. */
export async function listHooks(s: Scratch, bin: string, env: Record<string, string>): Promise<{ key: string; command: string; currentHash: string; trustStatus: string }[]> {
  const rpc = appServer(s, bin, env);
  try {
    await initialized(rpc);
    const listed = await rpc.call("hooks/list", { cwds: [s.repo] });
    return (listed["data"] as { hooks?: { key: string; command: string; currentHash: string; trustStatus: string }[] }[] | undefined)?.[0]?.hooks ?? [];
  } finally {
    await rpc.close();
  }
}

/** One turn on a new thread with the approval policy and sandbox given; every approval Codex asks for is declined. */
async function appServerTurn(
  s: Scratch,
  bin: string,
  env: Record<string, string>,
  settings: { approvalPolicy: string; sandbox: string },
): Promise<{ status: number | null; stdout: string; stderr: string }> {
  const rpc = appServer(s, bin, env);
  let finish: () => void = () => {};
  const finished = new Promise<void>((r) => (finish = r));
  rpc.onMessage((m) => {
    const method = m["method"] as string;
    if (m["id"] !== undefined) {
      // A request of the server's: an approval is declined (the user said no); anything else is cancelled.
      const decision = method.endsWith("requestApproval") ? "decline" : "cancel";
      rpc.reply(m["id"], method === "item/tool/requestUserInput" ? { answers: {} } : { decision });
      return;
    }
    if (method === "turn/completed") finish();
  });
  try {
    await initialized(rpc);
    const started = await rpc.call("thread/start", { cwd: s.repo, approvalPolicy: settings.approvalPolicy, sandbox: settings.sandbox, ephemeral: true });
    const thread = (started["thread"] as { id?: string } | undefined)?.id;
    if (!thread) return { status: null, stdout: rpc.lines.join("\n"), stderr: `thread/start: ${JSON.stringify(started)}` };
    await rpc.call("turn/start", { threadId: thread, input: [{ type: "text", text: "Run the commands you are given.", text_elements: [] }] });
    const timedOut = await Promise.race([finished.then(() => false), new Promise<boolean>((r) => setTimeout(() => r(true), SESSION_MS))]);
    const closed = await rpc.close();
    return { status: timedOut ? null : (closed.status ?? 0), stdout: rpc.lines.join("\n"), stderr: closed.stderr };
  } catch (e) {
    const closed = await rpc.close();
    return { status: null, stdout: rpc.lines.join("\n"), stderr: `${closed.stderr}\n${String(e)}` };
  }
}

// ---- fates ----------------------------------------------------------------------------------

function jsonLines(text: string): Record<string, unknown>[] {
  const out: Record<string, unknown>[] = [];
  for (const line of text.split("\n")) {
    if (!line.startsWith("{")) continue;
    try {
      out.push(JSON.parse(line) as Record<string, unknown>);
    } catch {
      // not one of Codex's events
    }
  }
  return out;
}

/**
 * A command's fate, by its call id: asked when Codex requested an approval for
 * it (app server); ran when Codex started it (its result carries the exit
 * code); denied when Codex refused it without asking (its rules, its own
 * checks, or an approval it could not ask for under `never`).
 */
export function codexFates(stdout: string, results: readonly Received[]): ReadonlyMap<string, Fate> {
  const asked = new Set<string>();
  for (const m of jsonLines(stdout)) {
    if (typeof m["method"] === "string" && (m["method"] as string).endsWith("requestApproval") && m["id"] !== undefined) {
      const item = (m["params"] as { itemId?: string } | undefined)?.itemId;
      if (item) asked.add(item);
    }
  }
  const fates = new Map<string, Fate>();
  for (const r of results) fates.set(r.id, fateOf(r, asked));
  return fates;
}

function fateOf(r: Received, asked: ReadonlySet<string>): Fate {
  if (asked.has(r.id)) return "asked";
  if (/^Chunk ID: .*\n(Wall time: .*\n)?Process exited with code -?\d+/m.test(r.text) || /^Process running with session ID/m.test(r.text)) return "ran";
  if (/rejected|forbidden|not permitted|blocked by policy|declined/i.test(r.text)) return "denied";
  return "error";
}
