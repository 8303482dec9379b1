// Claude Code, headless (`claude -p`, which refuses whatever would need the
// user's approval), its model replaced by the Messages API stand-in.
import { installed, type HostPackage } from "../support/packages.js";
import { anthropic, SESSION_PROMPT } from "../support/anthropic.js";
import { spawnAs, type Fate, type HostDriver } from "../support/session.js";

export const CLAUDE_PACKAGE: HostPackage = { name: "@anthropic-ai/claude-code", version: "2.1.332", bin: "node_modules/.bin/claude" };

export function claudeDriver(): HostDriver | { error: string } {
  const pkg = installed(CLAUDE_PACKAGE);
  if ("error" in pkg) return pkg;
  return {
    name: "claude",
    dialect: anthropic,
    run(s, baseUrl, opts) {
      const args = ["-p", SESSION_PROMPT, "--output-format", "stream-json", "--verbose", "--include-hook-events"];
      if (opts.mode) args.push("--permission-mode", opts.mode);
      return spawnAs(s, pkg.bin, args, {
        ANTHROPIC_BASE_URL: baseUrl,
        ANTHROPIC_API_KEY: "sk-ant-test",
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
        DISABLE_AUTOUPDATER: "1",
        DISABLE_TELEMETRY: "1",
        DISABLE_ERROR_REPORTING: "1",
      });
    },
    fates(stdout) {
      const fates = new Map<string, Fate>();
      for (const line of stdout.split("\n")) {
        let m: { type?: string; message?: { content?: { type?: string }[] }; tool_result_meta?: { id?: string; permission_decision?: { decision?: string }; non_execution_kind?: string }[] };
        try {
          m = JSON.parse(line);
        } catch {
          continue;
        }
        if (m.type !== "user" || !Array.isArray(m.message?.content)) continue;
        for (const meta of m.tool_result_meta ?? []) {
          const decision = meta.permission_decision?.decision;
          if (meta.id) fates.set(meta.id, decision === "accept" ? "ran" : meta.non_execution_kind === "permission-rule" ? "denied" : decision === "reject" ? "asked" : "error");
        }
      }
      return fates;
    },
    hookErrors(stdout) {
      // With --include-hook-events every hook's answer is a line: its exit code, outcome and stderr.
      const out: string[] = [];
      for (const line of stdout.split("\n")) {
        let m: { type?: string; subtype?: string; exit_code?: number; outcome?: string; stderr?: string; hook_name?: string };
        try {
          m = JSON.parse(line);
        } catch {
          continue;
        }
        if (m.type !== "system" || m.subtype !== "hook_response") continue;
        if (m.outcome !== "success" || m.exit_code !== 0 || (m.stderr ?? "") !== "") out.push(`${m.hook_name}: ${m.outcome}, exit ${m.exit_code}, stderr ${JSON.stringify(m.stderr)}`);
      }
      return out;
    },
  };
}
