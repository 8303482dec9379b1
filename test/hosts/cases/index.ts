// Every hook host's conformance cases. Adding a host is adding its file and a line here.
import { claude } from "./claude.js";
import { codex } from "./codex.js";
import { continueCli } from "./continue.js";
import { copilotCli } from "./copilot-cli.js";
import { copilotVscode } from "./copilot-vscode.js";
import { crush } from "./crush.js";
import { cursor, cursorShell } from "./cursor.js";
import { devin } from "./devin.js";
import { factory } from "./factory.js";
import { gemini } from "./gemini.js";
import { goose } from "./goose.js";
import { kimi } from "./kimi.js";
import { kiro } from "./kiro.js";
import { openhands } from "./openhands.js";
import { qoder } from "./qoder.js";
import { qwen } from "./qwen.js";
import { vibe } from "./vibe.js";
import type { HostCase } from "./types.js";

export const HOST_CASES: readonly HostCase[] = [
  claude,
  cursor,
  cursorShell,
  gemini,
  copilotVscode,
  copilotCli,
  codex,
  kiro,
  factory,
  devin,
  kimi,
  vibe,
  qwen,
  qoder,
  crush,
  continueCli,
  goose,
  openhands,
];
