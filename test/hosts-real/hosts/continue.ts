// Continue's CLI, headless (`cn -p`), its model an OpenAI-compatible provider
// in ~/.continue/config.yaml pointed at the chat completions stand-in.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { installed, type HostPackage } from "../support/packages.js";
import { openaiChat } from "../support/openai-chat.js";
import { SESSION_PROMPT } from "../support/anthropic.js";
import { spawnAs, type Fate, type HostDriver } from "../support/session.js";

export const CONTINUE_PACKAGE: HostPackage = { name: "@continuedev/cli", version: "1.5.47", bin: "node_modules/.bin/cn" };

/** The assistant every session uses: one chat model at the stand-in. */
export function assistantConfig(baseUrl: string): string {
  return [
    "name: Stand-in",
    "version: 1.0.0",
    "schema: v1",
    "models:",
    "  - name: Test model",
    "    provider: openai",
    "    model: test-model",
    `    apiBase: ${baseUrl}/v1`,
    "    apiKey: sk-test",
    "    roles: [chat]",
    "    capabilities: [tool_use]",
    "",
  ].join("\n");
}

/** Where the driver appends what cn kept of each session (its own record of every tool call's state) to cn's output. */
const SESSIONS_MARK = "--- cn sessions";

interface ToolCallState {
  toolCallId?: string;
  status?: string;
  output?: { content?: string }[];
}

export function continueDriver(): HostDriver | { error: string } {
  const pkg = installed(CONTINUE_PACKAGE);
  if ("error" in pkg) return pkg;
  return {
    name: "continue",
    // Ten calls a turn: cn judges each and runs those it allows side by side.
    dialect: openaiChat(10, { name: "Bash", unoffered: true }),
    async run(s, baseUrl, opts) {
      const config = join(s.home, ".continue", "config.yaml");
      s.put(config, assistantConfig(baseUrl));
      const args = ["-p", "--config", config];
      if (opts.mode === "auto") args.push("--auto");
      else if (opts.mode === "readonly") args.push("--readonly");
      args.push(SESSION_PROMPT);
      const run = await spawnAs(s, pkg.bin, args, { CONTINUE_CLI_DISABLE_TELEMETRY: "1", CONTINUE_TELEMETRY_ENABLED: "0" });
      // Headless cn prints only the model's last answer; a refused call ends its run before the model hears of it.
      // Each session's history, which it keeps in ~/.continue/sessions, says what came of every call.
      const dir = join(s.home, ".continue", "sessions");
      const kept = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith(".json") && f !== "sessions.json") : [];
      const states = kept.flatMap((f) => {
        try {
          const doc = JSON.parse(readFileSync(join(dir, f), "utf8")) as { history?: { toolCallStates?: ToolCallState[] }[] };
          return (doc.history ?? []).flatMap((h) => h.toolCallStates ?? []);
        } catch {
          return [];
        }
      });
      return { ...run, stdout: `${run.stdout}\n${SESSIONS_MARK}\n${states.map((x) => JSON.stringify(x)).join("\n")}\n` };
    },
    fates(stdout) {
      const fates = new Map<string, Fate>();
      const at = stdout.lastIndexOf(`\n${SESSIONS_MARK}\n`);
      for (const line of at < 0 ? [] : stdout.slice(at + SESSIONS_MARK.length + 2).split("\n")) {
        let state: ToolCallState;
        try {
          state = JSON.parse(line) as ToolCallState;
        } catch {
          continue;
        }
        if (state.toolCallId) fates.set(state.toolCallId, fateOf(state));
      }
      return fates;
    },
    hookErrors(stdout, stderr) {
      const at = stdout.lastIndexOf(`\n${SESSIONS_MARK}\n`);
      return [...(at < 0 ? stdout : stdout.slice(0, at)).split("\n"), ...stderr.split("\n")].filter((l) => /hook/i.test(l) && /fail|error/i.test(l));
    },
  };
}

/**
 * A call's fate from the state cn kept. Headless, cn cannot ask: a call its
 * permissions would ask about is refused as one they exclude, "blocked by
 * security policy" (denied). A command that started ran, whatever its exit.
 */
function fateOf(state: ToolCallState): Fate {
  const text = (state.output ?? []).map((o) => o.content ?? "").join("");
  if (state.status === "done") return "ran";
  if (/blocked by security policy|Permission denied/.test(text)) return "denied";
  if (state.status === "errored" && /^Error executing tool Bash: /.test(text)) return "ran";
  return "error";
}
