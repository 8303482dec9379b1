// Kilo Code: no hook; a rule file of its own in Kilo's rules folder (every file
// there is read as a rule) asks the model to type `rtk …` itself.
import { join } from "node:path";
import { NO_RULES } from "../permissions/sources.js";
import { home, project, RULES_TARGET } from "./targets.js";
import type { Host } from "./types.js";

export const kilo: Host = {
  name: "kilo",
  title: "Kilo Code",
  tier: "rules-only",
  aliases: ["kilocode"],
  rules: NO_RULES,
  install: {
    target: RULES_TARGET,
    scopes: {
      global: (w) => join(home(w), ".kilocode", "rules", "rtk.md"),
      project: (w) => join(project(w, ".kilocode"), ".kilocode", "rules", "rtk.md"),
    },
    defaultScope: "project",
  },
};
