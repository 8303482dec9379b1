// AGENTS.md: no hook; an instructions file asks the model to type `rtk …` itself.
import { join } from "node:path";
import { NO_RULES } from "../permissions/sources.js";
import { project, RULES_TARGET } from "./targets.js";
import type { Host } from "./types.js";

export const agents: Host = {
  name: "agents",
  title: "AGENTS.md",
  tier: "rules-only",
  rules: NO_RULES,
  install: { target: RULES_TARGET, scopes: { project: (w) => join(project(w, ".git"), "AGENTS.md") }, defaultScope: "project" },
};
