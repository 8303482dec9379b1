// OpenCode, headless (`opencode run --format json`, which rejects whatever would
// need the user's approval), its model a custom OpenAI-compatible provider
// pointed at the chat completions stand-in.
import { join } from "node:path";
import { installed, type HostPackage } from "../support/packages.js";
import { openaiChat } from "../support/openai-chat.js";
import { SESSION_PROMPT } from "../support/anthropic.js";
import { spawnAs, type Fate, type HostDriver } from "../support/session.js";

export const OPENCODE_PACKAGE: HostPackage = { name: "opencode-ai", version: "1.18.33", bin: "node_modules/opencode-ai/bin/opencode.exe" };

/** The provider and model every session uses, in the user's `config.json` (the first global file OpenCode reads; rule sets write the others). */
export function providerConfig(baseUrl: string): string {
  return JSON.stringify({
    $schema: "https://opencode.ai/config.json",
    provider: {
      stand_in: {
        npm: "@ai-sdk/openai-compatible",
        name: "Stand-in",
        options: { baseURL: `${baseUrl}/v1`, apiKey: "sk-test" },
        models: { "test-model": { name: "Test model", tool_call: true, limit: { context: 200000, output: 8192 } } },
      },
    },
    model: "stand_in/test-model",
    small_model: "stand_in/test-model",
    autoupdate: false,
    share: "disabled",
    snapshot: false,
    // A refused call would end `opencode run`'s turn: the script goes on to its next command.
    experimental: { continue_loop_on_deny: true },
  });
}

interface ToolUse {
  type?: string;
  part?: { callID?: string; tool?: string; state?: { status?: string; error?: string; title?: string; input?: { command?: string }; metadata?: { rtk?: unknown } } };
}

function toolUses(stdout: string): ToolUse[] {
  const out: ToolUse[] = [];
  for (const line of stdout.split("\n")) {
    try {
      const m = JSON.parse(line) as ToolUse;
      if (m.type === "tool_use" && m.part?.tool === "bash") out.push(m);
    } catch {
      continue;
    }
  }
  return out;
}

export function opencodeDriver(): HostDriver | { error: string } {
  const pkg = installed(OPENCODE_PACKAGE);
  if ("error" in pkg) return pkg;
  return {
    name: "opencode",
    // Forty parallel calls a turn: OpenCode runs them side by side, which saves a model round trip per command.
    dialect: openaiChat(40),
    run(s, baseUrl, opts) {
      s.put(join(s.env["XDG_CONFIG_HOME"]!, "opencode", "config.json"), providerConfig(baseUrl));
      const args = ["run", "--format", "json", "--model", "stand_in/test-model"];
      if (opts.mode) args.push("--agent", opts.mode);
      args.push(SESSION_PROMPT);
      return spawnAs(s, pkg.bin, args, {
        OPENCODE_DISABLE_MODELS_FETCH: "1",
        OPENCODE_DISABLE_AUTOUPDATE: "1",
        OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
        OPENCODE_DISABLE_DEFAULT_PLUGINS: "1",
        OPENCODE_DISABLE_CLAUDE_CODE: "1",
        OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
        OPENCODE_DISABLE_SHARE: "1",
      });
    },
    fates(stdout) {
      const fates = new Map<string, Fate>();
      for (const m of toolUses(stdout)) {
        const id = m.part?.callID;
        const state = m.part?.state;
        if (!id || !state) continue;
        const error = state.error ?? "";
        fates.set(
          id,
          state.status === "completed" ? "ran" : /rejected permission/.test(error) ? "asked" : /specified a rule which prevents|OpenCode permissions deny/.test(error) ? "denied" : "error",
        );
      }
      return fates;
    },
    commandsRun(stdout) {
      // The command rtk's plugin ran in the shell OpenCode started (noted in the call's metadata), else the one the bash tool ran (its title).
      const out = new Map<string, string>();
      for (const m of toolUses(stdout)) {
        const id = m.part?.callID;
        const state = m.part?.state;
        const run = typeof state?.metadata?.rtk === "string" ? state.metadata.rtk : state?.status === "completed" ? state.title : state?.input?.command;
        if (id && typeof run === "string") out.set(id, run);
      }
      return out;
    },
  };
}
