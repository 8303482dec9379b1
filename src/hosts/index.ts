import { claude } from "./claude.js";
import { codex } from "./codex.js";
import { copilot } from "./copilot.js";
import { cursor } from "./cursor.js";
import { gemini } from "./gemini.js";
import { kiro } from "./kiro.js";
import type { HookAdapter } from "./types.js";

export const HOOK_ADAPTERS: ReadonlyMap<string, HookAdapter<any>> = new Map(
  [claude, cursor, gemini, copilot, codex, kiro].map((a) => [a.name, a as HookAdapter<any>]),
);
