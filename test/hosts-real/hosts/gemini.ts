// Gemini CLI, headless (`gemini -p … --output-format stream-json`), its model
// replaced by the Gemini API stand-in (an API key, GOOGLE_GEMINI_BASE_URL).
import { installed, type HostPackage } from "../support/packages.js";
import { geminiApi } from "../support/gemini-api.js";
import { SESSION_PROMPT } from "../support/anthropic.js";
import { spawnAs, type Fate, type HostDriver } from "../support/session.js";

export const GEMINI_PACKAGE: HostPackage = { name: "@google/gemini-cli", version: "0.61.0", bin: "node_modules/.bin/gemini" };

/** The settings a headless run needs besides rtk's hooks: API-key auth, no telemetry or update checks. */
const SETTINGS = {
  security: { auth: { selectedType: "gemini-api-key" }, folderTrust: { enabled: false } },
  general: { disableAutoUpdate: true, disableUpdateNag: true },
  privacy: { usageStatisticsEnabled: false },
  telemetry: { enabled: false },
};

export function geminiDriver(): HostDriver | { error: string } {
  const pkg = installed(GEMINI_PACKAGE);
  if ("error" in pkg) return pkg;
  return {
    name: "gemini",
    // Ten calls a turn: Gemini CLI runs a turn's shell calls side by side, which saves a model round trip per command.
    dialect: geminiApi(10),
    run(s, baseUrl, opts) {
      // rtk's hooks are already in ~/.gemini/settings.json (rtk init): the rest is merged in beside them.
      s.mergeJson(`${s.home}/.gemini/settings.json`, SETTINGS);
      const args = ["-p", SESSION_PROMPT, "--output-format", "stream-json", "--skip-trust", "--approval-mode", opts.mode ?? "yolo", "-m", "gemini-2.5-flash"];
      return spawnAs(s, pkg.bin, args, {
        GEMINI_API_KEY: "test-key",
        GOOGLE_GEMINI_BASE_URL: baseUrl,
        GEMINI_CLI_NO_RELAUNCH: "true",
        NO_BROWSER: "true",
      });
    },
    fates(stdout, results) {
      // stream-json: a tool_result event per call, with its status; its tool_id is `<tool>__<the call's id>`.
      const byId = new Map<string, Fate>();
      for (const line of stdout.split("\n")) {
        let m: { type?: string; tool_id?: string; status?: string; error?: { type?: string; message?: string } };
        try {
          m = JSON.parse(line);
        } catch {
          continue;
        }
        if (m.type !== "tool_result" || !m.tool_id) continue;
        byId.set(m.tool_id.replace(/^.*__/, ""), m.status === "success" ? "ran" : fateOfError(m.error));
      }
      const fates = new Map<string, Fate>();
      for (const r of results) fates.set(r.id, byId.get(r.id) ?? "error");
      return fates;
    },
    hookErrors(stdout, stderr) {
      // Not the events of the conversation: a command's output may say anything.
      const notes = stdout.split("\n").filter((l) => !/^\{"type":"(tool_use|tool_result|message)"/.test(l));
      return [...notes, ...stderr.split("\n")].filter((l) => /hook/i.test(l) && /fail|error/i.test(l));
    },
  };
}

/**
 * A refused call's fate. Headless, Gemini CLI cannot ask: a call its policy
 * would ask about fails with "requires user confirmation" (asked); one its
 * policy denies fails as a policy violation, and one whose tool the policy
 * withholds altogether (a rule that denies the whole tool) is not found
 * (denied). A command that started and failed in the shell ran.
 */
function fateOfError(error: { type?: string; message?: string } | undefined): Fate {
  if (/requires user confirmation/.test(error?.message ?? "")) return "asked";
  switch (error?.type) {
    case "policy_violation":
    case "tool_not_registered":
      return "denied";
    case "shell_execute_error":
      return "ran";
    default:
      return "error";
  }
}
