// Trae: no hook; rtk's rules block in the project rules file,
// `.trae/rules/project_rules.md`, which Trae applies to every request in the
// project (a rule file of another name may apply only when its front matter
// says so), asks the model to type `rtk …` itself. Trae's personal rules are
// kept by its settings, not in a file, so only the project scope.
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
    scopes: { project: (w) => join(project(w, ".trae"), ".trae", "rules", "project_rules.md") },
    defaultScope: "project",
  },
};
