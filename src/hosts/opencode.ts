// The OpenCode plugin rtk installs: it imports rtk's library in-process (no
// subprocess per command) and rewrites the bash tool's command before it runs.
// It never allows anything: OpenCode decides, on the rewritten command, which
// its `permission.bash` patterns may no longer match. So a command one of them
// denies or asks for is left as typed (rtk reads them as its rules), and one the
// agent typed behind `rtk` under a deny is stopped with the reason. If the
// library cannot be imported, it falls back to `rtk rewrite`.
import { join } from "node:path";
import { OPENCODE_RULES } from "../permissions/sources.js";
import { rewriteCore } from "./plugin-text.js";
import { configHome, project } from "./targets.js";
import type { Host, RtkPaths } from "./types.js";

export const opencode: Host = {
  name: "opencode",
  title: "OpenCode",
  tier: "plugin",
  rules: OPENCODE_RULES,
  install: {
    target: { kind: "file", marker: "rtk:opencode-plugin", content: opencodePlugin },
    scopes: {
      global: (w) => join(configHome(w), "opencode", "plugins", "rtk.ts"),
      project: (w) => join(project(w, ".opencode"), ".opencode", "plugins", "rtk.ts"),
    },
    defaultScope: "global",
  },
};

export function opencodePlugin(paths: RtkPaths): string {
  return `// rtk:opencode-plugin — written by \`rtk init --agent opencode\`; \`rtk init --agent opencode --uninstall\` removes it.
import { spawnSync } from "node:child_process";

const RTK_LIB = ${JSON.stringify(paths.lib)};
const RTK_BIN = ${JSON.stringify(paths.bin)};

${rewriteCore({
  host: '"opencode"',
  answerFields: "; verdict?: string; activeDeny?: boolean",
  declarations: `
/** Thrown to stop a command OpenCode's own rules cannot see. */
class RtkDenied extends Error {}
`,
  onAnswer: `    if (r.verdict === "deny" && r.activeDeny) {
      throw new RtkDenied("rtk: your OpenCode permissions deny this command; the \`rtk\` prefix does not change what it runs, so OpenCode cannot see it: run it without \`rtk\`");
    }
    // An ask rule would not see the rewritten command: OpenCode asks about it as typed.
`,
  spawn: `  const r = spawnSync(RTK_BIN, ["rewrite", "--json", "--host", "opencode", command], { cwd, encoding: "utf8", timeout: 5000 });
`,
  replyFields: "; activeDeny?: unknown",
  onReply: `  if (out.verdict === "deny" && out.activeDeny === true) throw new RtkDenied("rtk: your OpenCode permissions deny this command; run it without \`rtk\`");
  // Allowed, or no rule at all: an ask rule's verdict is "ask".
`,
})}

export const RtkPlugin = async ({ directory }: { directory?: string } = {}) => ({
  "tool.execute.before": async (input: { tool?: string }, output: { args?: { command?: unknown } }) => {
    if (input?.tool !== "bash") return;
    const command = output?.args?.command;
    if (typeof command !== "string") return;
    try {
      const rewritten = await rewriteCommand(command, directory);
      if (rewritten !== null && output.args) output.args.command = rewritten;
    } catch (e) {
      if (e instanceof RtkDenied) throw e;
      // Fail open: the command runs as the agent wrote it.
    }
  },
});
`;
}
