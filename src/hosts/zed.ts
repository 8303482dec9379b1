// Zed's agent: no hook; rtk's rules block in the personal instructions file
// (~/.config/zed/AGENTS.md), which applies to every project. A project file is
// not written: Zed reads only the first of `.rules`, `.cursorrules`, …,
// `AGENTS.md`, so a new `.rules` would hide the instructions a project has.
import { join } from "node:path";
import { NO_RULES } from "../permissions/sources.js";
import { configHome, RULES_TARGET } from "./targets.js";
import type { Host } from "./types.js";

export const zed: Host = {
  name: "zed",
  title: "Zed",
  tier: "rules-only",
  rules: NO_RULES,
  install: {
    target: RULES_TARGET,
    scopes: { global: (w) => join(configHome(w), "zed", "AGENTS.md") },
    defaultScope: "global",
  },
};
