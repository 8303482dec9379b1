// Copilot CLI, headless (`copilot -p … --output-format json`), with its own
// model provider (BYOK: COPILOT_PROVIDER_BASE_URL) pointed at the chat
// completions stand-in and COPILOT_OFFLINE=true: no GitHub login, no network.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { cacheRoot, installed, type HostPackage } from "../support/packages.js";
import { hostAccount } from "../support/sandbox.js";
import { openaiChat } from "../support/openai-chat.js";
import { SESSION_PROMPT } from "../support/anthropic.js";
import { spawnAs, type Fate, type HostDriver } from "../support/session.js";

/** The package users install; the program is its platform package's native binary, which the package's loader starts. */
export const COPILOT_PACKAGE: HostPackage = { name: "@github/copilot", version: "1.0.102", bin: "node_modules/@github/copilot-linux-x64/copilot" };

interface CopilotEvent {
  type?: string;
  data?: { toolCallId?: string; success?: boolean; shellExecution?: { exitCode?: number }; error?: { message?: string; code?: string } };
}

function events(stdout: string): CopilotEvent[] {
  const out: CopilotEvent[] = [];
  for (const line of stdout.split("\n")) {
    try {
      out.push(JSON.parse(line) as CopilotEvent);
    } catch {
      continue;
    }
  }
  return out;
}

export function copilotDriver(): HostDriver | { error: string } {
  const pkg = installed(COPILOT_PACKAGE);
  if ("error" in pkg) return pkg;
  const unpacked = unpackedOnce(pkg.bin);
  if ("error" in unpacked) return unpacked;
  return {
    name: "copilot",
    // Ten calls a turn: Copilot runs a turn's shell calls one after another, without a model round trip between them.
    dialect: openaiChat(10),
    async run(s, baseUrl, opts) {
      const args = ["-p", SESSION_PROMPT, "--output-format", "json", "--no-auto-update", "--disable-builtin-mcps", "--no-custom-instructions", "--no-ask-user"];
      // The mode is options of its command line, each starting with `--`.
      if (opts.mode) args.push(...opts.mode.split(/ (?=--)/));
      const r = await spawnAs(s, pkg.bin, args, {
        COPILOT_OFFLINE: "true",
        COPILOT_PROVIDER_BASE_URL: `${baseUrl}/v1`,
        COPILOT_PROVIDER_API_KEY: "sk-test",
        COPILOT_MODEL: "test-model",
        COPILOT_AUTO_UPDATE: "false",
        XDG_CACHE_HOME: unpacked.cache,
      });
      // A hook that fails is reported in Copilot's log (and the call refused: its hooks fail closed).
      const logs = join(s.home, ".copilot", "logs");
      const logged = existsSync(logs) ? readdirSync(logs).flatMap((f) => readFileSync(join(logs, f), "utf8").split("\n")) : [];
      return { ...r, stderr: r.stderr + logged.filter((l) => /\[ERROR\] \[[^\]]*hooks\]/.test(l)).join("\n") };
    },
    hookErrors(_stdout, stderr) {
      return stderr.split("\n").filter((l) => /\[ERROR\] \[[^\]]*hooks\]/.test(l));
    },
    fates(stdout) {
      const fates = new Map<string, Fate>();
      for (const e of events(stdout)) {
        if (e.type !== "tool.execution_complete" || !e.data?.toolCallId) continue;
        const message = e.data.error?.message ?? "";
        // A command that ran, whatever its exit code; headless, what Copilot would ask about is refused ("no interactive
        // user response"); what its rules or a hook's answer deny is refused naming them (a hook that failed: an error).
        const fate: Fate =
          e.data.success || e.data.shellExecution
            ? "ran"
            : /no interactive user response/.test(message)
              ? "asked"
              : /denied due to the following rules|Denied by preToolUse hook(?!.*hook errored)/.test(message)
                ? "denied"
                : "error";
        fates.set(e.data.toolCallId, fate);
      }
      return fates;
    },
  };
}

/**
 * The program's own files, which the native binary unpacks into `$XDG_CACHE_HOME/copilot` on its first start (some
 * 240 MB, five seconds): unpacked once into the cache, as the sandbox user, and shared by every session.
 */
function unpackedOnce(bin: string): { cache: string } | { error: string } {
  const cache = join(cacheRoot(), `copilot-unpacked@${COPILOT_PACKAGE.version}`);
  if (existsSync(join(cache, "copilot", "pkg"))) return { cache };
  const acct = hostAccount();
  mkdirSync(cache, { recursive: true, mode: 0o755 });
  spawnSync("chown", ["-R", `${acct.uid}:${acct.gid}`, cache]);
  const r = spawnSync(bin, ["--version"], {
    env: { PATH: "/usr/bin:/bin", HOME: cache, XDG_CACHE_HOME: cache, COPILOT_OFFLINE: "true" },
    uid: acct.uid,
    gid: acct.gid,
    encoding: "utf8",
    timeout: 120_000,
  });
  if (r.status !== 0 || !existsSync(join(cache, "copilot", "pkg"))) return { error: `copilot --version did not unpack the program: ${r.stderr || r.error?.message || ""}`.trim() };
  return { cache };
}
