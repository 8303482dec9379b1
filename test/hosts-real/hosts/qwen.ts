// Qwen Code, headless (`qwen -p … --output-format stream-json`), its model an
// OpenAI-compatible provider (OPENAI_BASE_URL) pointed at the chat completions
// stand-in.
import { installed, type HostPackage } from "../support/packages.js";
import { followUp, openaiChat, sentCommand } from "../support/openai-chat.js";
import { contentText } from "../support/model.js";
import { SESSION_PROMPT } from "../support/anthropic.js";
import { spawnAs, type Fate, type HostDriver } from "../support/session.js";

export const QWEN_PACKAGE: HostPackage = { name: "@qwen-code/qwen-code", version: "0.24.4", bin: "node_modules/.bin/qwen" };

/** The settings a headless run needs besides rtk's hooks: the OpenAI-compatible provider, no telemetry or update checks. */
const SETTINGS = {
  security: { auth: { selectedType: "openai" }, folderTrust: { enabled: false } },
  model: { name: "test-model" },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
  // Its memory agents would send requests of their own, with the shell tool and the session's prompt.
  memory: { enableManagedAutoMemory: false },
};

/** The command rtk's gate tells the model to run instead (GATE_ANSWERS' words, which Qwen hands the model as the call's error). */
export function gateSuggestion(text: string): string | null {
  return /rtk: run `([\s\S]*)` instead \(same command, compact output\)/.exec(text)?.[1] ?? null;
}

interface StreamLine {
  type?: string;
  message?: { content?: { type?: string; id?: string; tool_use_id?: string; is_error?: boolean; content?: unknown; input?: { command?: unknown } }[] };
}

function lines(stdout: string): StreamLine[] {
  return stdout.split("\n").flatMap((l) => {
    try {
      return [JSON.parse(l) as StreamLine];
    } catch {
      return [];
    }
  });
}

export function qwenDriver(): HostDriver | { error: string } {
  const pkg = installed(QWEN_PACKAGE);
  if ("error" in pkg) return pkg;
  return {
    name: "qwen",
    // Ten calls a turn (Qwen Code runs a turn's calls side by side); a refusal that names another command is followed, as a model would.
    dialect: openaiChat(10, { name: "run_shell_command", args: { is_background: false, description: "Run a command" }, unoffered: true, follow: gateSuggestion }),
    run(s, baseUrl, opts) {
      // rtk's hooks are already in ~/.qwen/settings.json (rtk init): the rest is merged in beside them.
      s.mergeJson(`${s.home}/.qwen/settings.json`, SETTINGS);
      const args = ["-p", SESSION_PROMPT, "--output-format", "stream-json", "--approval-mode", opts.mode ?? "default"];
      return spawnAs(s, pkg.bin, args, {
        OPENAI_API_KEY: "sk-test",
        OPENAI_BASE_URL: `${baseUrl}/v1`,
        OPENAI_MODEL: "test-model",
        QWEN_CODE_SUPPRESS_YOLO_WARNING: "1",
        // Its start-up relaunch (a bigger heap) changes nothing the suite reads, and costs a second start.
        QWEN_CODE_NO_RELAUNCH: "true",
        NO_BROWSER: "true",
      });
    },
    fates(stdout) {
      const fates = new Map<string, Fate>();
      for (const m of lines(stdout)) {
        for (const c of m.message?.content ?? []) {
          if (c.type === "tool_result" && c.tool_use_id) fates.set(c.tool_use_id, fateOf(c.is_error === true, contentText(c.content)));
        }
      }
      // A call the gate refused met the fate of the command the model then ran in its place.
      for (const [id] of fates) {
        const follow = followUp(id);
        if (follow !== undefined) fates.set(id, fates.get(follow) ?? "error");
      }
      return fates;
    },
    commandsRun(stdout) {
      const out = new Map<string, string>();
      for (const m of lines(stdout)) {
        for (const c of m.message?.content ?? []) if (c.type === "tool_use" && c.id && typeof c.input?.command === "string") out.set(c.id, c.input.command);
      }
      for (const [id] of out) {
        const follow = followUp(id);
        if (follow !== undefined) out.set(id, sentCommand(follow) ?? out.get(follow) ?? "");
      }
      return out;
    },
    hookErrors(stdout, stderr) {
      // Not the events of the session (its JSON lines): a command and its output may say anything.
      const notes = stdout.split("\n").filter((l) => !l.startsWith("{"));
      return [...notes, ...stderr.split("\n")].filter((l) => /hook/i.test(l) && /fail|error/i.test(l));
    },
  };
}

/**
 * A call's fate from its result. Headless, Qwen Code cannot ask: a call it
 * would ask about fails saying so (asked); one a rule denies, or whose tool it
 * withholds (outside yolo, the shell tool unless a rule allows it, and the edit
 * tools whose writes a command would make), fails naming the deny rule
 * (denied), and so is one a hook refuses. A command that started and failed
 * in the shell ran.
 */
function fateOf(isError: boolean, text: string): Fate {
  // A long output is saved to a file, and the result says so before its truncated text.
  if (!isError || /(^|\n)Command: [\s\S]*\nExit Code: /.test(text)) return "ran";
  if (/non-interactive mode cannot prompt|could not determine whether this shell command is read-only, and no approval surface/.test(text)) return "asked";
  // rtk's own refusal (a hook's exit 2 and its stderr) is Qwen's deny too.
  if (/Matching deny rule|denied by permission rules|Plan mode blocked|blocked by plan mode|^rtk: /.test(text)) return "denied";
  // Qwen refuses an in-place `sed` of a file the session has not read, as it refuses such an edit.
  if (/has not been read in this session/.test(text)) return "denied";
  return "error";
}
