// Trae: no hook; a rule file of its own in the project's rules folder (Trae
// reads every Markdown file in `.trae/rules/`) asks the model to type `rtk …`
// itself. Trae's personal rules are kept by its settings, not in a file rtk
// could own, so only the project scope.
import { join } from "node:path";
import { NO_RULES } from "../permissions/sources.js";
import { project, RULES_TARGET } from "./targets.js";
import type { Host } from "./types.js";

export const trae: Host = {
  name: "trae",
  title: "Trae",
  tier: "rules-only",
  rules: NO_RULES,
  install: {
    target: RULES_TARGET,
    scopes: { project: (w) => join(project(w, ".trae"), ".trae", "rules", "rtk.md") },
    defaultScope: "project",
  },
};
