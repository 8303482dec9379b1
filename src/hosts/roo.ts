// Roo Code: no hook; a rule file of its own in Roo's rules folder (every file
// there is read into the system prompt) asks the model to type `rtk …` itself.
import { join } from "node:path";
import { NO_RULES } from "../permissions/sources.js";
import { home, project, RULES_TARGET } from "./targets.js";
import type { Host } from "./types.js";

export const roo: Host = {
  name: "roo",
  title: "Roo Code",
  tier: "rules-only",
  rules: NO_RULES,
  install: {
    target: RULES_TARGET,
    scopes: {
      global: (w) => join(home(w), ".roo", "rules", "rtk.md"),
      project: (w) => join(project(w, ".roo"), ".roo", "rules", "rtk.md"),
    },
    defaultScope: "project",
  },
};
