// The pieces host files build their install targets from: the folders a host's
// settings live in, and the rules block of rules-only hosts.
import { homedir } from "node:os";
import { join } from "node:path";
import { projectRoot } from "../permissions/sources.js";
import type { Where } from "./types.js";

export const home = (w: Where) => w.env["HOME"] || homedir();
export const configHome = (w: Where) => w.env["XDG_CONFIG_HOME"] || join(home(w), ".config");
/** The project folder: the nearest one below HOME with the host's folder, else the git top level, else cwd. */
export const project = (w: Where, folder: string) => projectRoot(w.cwd, folder, home(w)) ?? w.cwd;

export const commandHook = (command: string, timeout?: number) => ({ type: "command", command, ...(timeout !== undefined ? { timeout } : {}) });

export const RULES_BLOCK = `## rtk — compact command output

Prefix shell commands with \`rtk\` to get compact, faithful output: \`rtk git status\`,
\`rtk git diff\`, \`rtk git log -n 20\`, \`rtk ls\`, \`rtk find\`, \`rtk grep\`, \`rtk cargo test\`,
\`rtk npm test\`, \`rtk npx vitest run\`, \`rtk pytest\`, \`rtk tsc\`. Exit codes and errors are kept;
anything hidden is listed with a count and can be printed with \`rtk recall <id>\`.
Do not use \`rtk\` when the output feeds another program or a file (\`| jq\`, \`| grep\`,
\`> out.txt\`, \`$(…)\`), under \`sudo\`, or when you need the exact raw bytes (\`rtk proxy <cmd>\`).`;
