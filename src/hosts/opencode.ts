// The OpenCode plugin rtk installs: it imports rtk's library in-process (no
// subprocess per command) and rewrites the bash tool's command before it runs.
// It never decides a permission: OpenCode does. If the library cannot be
// imported, it falls back to `rtk rewrite`.
import { join } from "node:path";
import { NO_RULES } from "../permissions/sources.js";
import { configHome, project } from "./targets.js";
import type { Host, RtkPaths } from "./types.js";

export const opencode: Host = {
  name: "opencode",
  title: "OpenCode",
  tier: "plugin",
  rules: NO_RULES,
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

type Rewrite = (command: string, opts: { host: string; cwd?: string; warn: (m: string) => void }) => { command: string | null; exitCode: number };

let loaded: Promise<Rewrite | null> | undefined;
function library(): Promise<Rewrite | null> {
  loaded ??= import(RTK_LIB).then((m) => (typeof m.rewrite === "function" ? (m.rewrite as Rewrite) : null), () => null);
  return loaded;
}

/** The rewritten command, or null to leave it as it is. */
async function rewriteCommand(command: string, cwd: string | undefined): Promise<string | null> {
  const rewrite = await library();
  if (rewrite) {
    const r = rewrite(command, { host: "opencode", cwd, warn: () => {} });
    return r.exitCode === 0 || r.exitCode === 3 ? r.command : null;
  }
  const r = spawnSync(RTK_BIN, ["rewrite", "--host", "opencode", command], { cwd, encoding: "utf8", timeout: 5000 });
  return (r.status === 0 || r.status === 3) && r.stdout ? r.stdout : null;
}

export const RtkPlugin = async ({ directory }: { directory?: string } = {}) => ({
  "tool.execute.before": async (input: { tool?: string }, output: { args?: { command?: unknown } }) => {
    if (input?.tool !== "bash") return;
    const command = output?.args?.command;
    if (typeof command !== "string") return;
    try {
      const rewritten = await rewriteCommand(command, directory);
      if (rewritten !== null && output.args) output.args.command = rewritten;
    } catch {
      // Fail open: the command runs as the agent wrote it.
    }
  },
});
`;
}
