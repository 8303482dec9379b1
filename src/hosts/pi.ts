// Pi (the pi coding agent) and Oh My Pi, its fork: TypeScript extensions that
// the agent loads in-process. A `tool_call` handler sees every tool call before
// it runs; for the `bash` tool rtk's extension puts the rewrite in place. Pi
// applies changes made to `event.input` in place; Oh My Pi applies an `input`
// the handler returns. The extension does both, so either host (and Oh My Pi
// reading Pi's folders, which it takes as aliases of its own) runs the rewrite.
// It never blocks and never decides a permission: neither host has command
// rules of its own that the rewritten text could slip past (Oh My Pi's
// approvals are per tool, not per command). It imports rtk's library (no
// subprocess per command) and falls back to `rtk rewrite` if that fails.
import { join } from "node:path";
import { NO_RULES } from "../permissions/sources.js";
import { rewriteCore } from "./plugin-text.js";
import { home, project } from "./targets.js";
import type { Host, RtkPaths } from "./types.js";

/** The extension file for `host`: `~/<folder>/agent/extensions/rtk.ts`, or `<folder>/extensions/rtk.ts` in a project. */
function extensionHost(name: string, title: string, folder: string, note: string): Host {
  return {
    name,
    title,
    tier: "plugin",
    rules: NO_RULES,
    install: {
      target: { kind: "file", marker: `rtk:${name}-extension`, content: (paths) => piExtension(paths, name) },
      scopes: {
        global: (w) => join(home(w), folder, "agent", "extensions", "rtk.ts"),
        project: (w) => join(project(w, folder), folder, "extensions", "rtk.ts"),
      },
      defaultScope: "global",
      note,
    },
  };
}

export const pi = extensionHost("pi", "Pi", ".pi", "Pi loads it at start (or on /reload); a project's .pi/extensions only once the project is trusted.");

export const omp = extensionHost("omp", "Oh My Pi", ".omp", "Oh My Pi loads it at start (or on /reload).");

export function piExtension(paths: RtkPaths, host: string): string {
  return `// rtk:${host}-extension — written by \`rtk init --agent ${host}\`; \`rtk init --agent ${host} --uninstall\` removes it.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

const RTK_LIB = ${JSON.stringify(paths.lib)};
const RTK_BIN = ${JSON.stringify(paths.bin)};
const HOST = ${JSON.stringify(host)};

${rewriteCore({
  host: "HOST",
  spawn: `  // Someone else's checkout of a project: the \`rtk\` on PATH.
  const bin = existsSync(RTK_BIN) ? RTK_BIN : "rtk";
  const r = spawnSync(bin, ["rewrite", "--json", "--host", HOST, command], { cwd, encoding: "utf8", timeout: 5000 });
`,
})}

interface ToolCall {
  toolName?: unknown;
  input?: Record<string, unknown>;
}

export default function rtk(api: { on(event: string, handler: (event: ToolCall, ctx?: { cwd?: unknown }) => unknown): void }) {
  api.on("tool_call", async (event, ctx) => {
    // A handler that throws blocks the call: every failure leaves the command as typed.
    try {
      const input = event?.input;
      const command = input?.command;
      if (event?.toolName !== "bash" || !input || typeof command !== "string") return undefined;
      const rewritten = await rewriteCommand(command, typeof ctx?.cwd === "string" ? ctx.cwd : undefined);
      if (rewritten === null || rewritten === command) return undefined;
      input.command = rewritten;
      return { input: { ...input } };
    } catch {
      return undefined;
    }
  });
}
`;
}
