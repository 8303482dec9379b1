// The shared corpus of agent commands, read in place (it is never copied into
// the project). Absent corpus: the caller prints a skip line.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { root } from "../harness/context.js";

export const agentCommandsPath = join(root, "../shared/corpus/agent-commands.json");

export function loadAgentCommands(): string[] | undefined {
  if (!existsSync(agentCommandsPath)) return undefined;
  return JSON.parse(readFileSync(agentCommandsPath, "utf8")) as string[];
}
