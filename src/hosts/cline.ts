// Cline: no hook that can replace a command; an instructions file asks the model to type `rtk …` itself.
import { join } from "node:path";
import { NO_RULES } from "../permissions/sources.js";
import { project, RULES_TARGET, rulesFileOrFolder } from "./targets.js";
import type { Host } from "./types.js";

export const cline: Host = {
  name: "cline",
  title: "Cline",
  tier: "rules-only",
  rules: NO_RULES,
  install: {
    target: RULES_TARGET,
    // `.clinerules` is a file or a folder of rule files; in a folder, rtk's block is a file of its own.
    scopes: { project: (w) => rulesFileOrFolder(join(project(w, ".git"), ".clinerules"), "rtk.md") },
    defaultScope: "project",
  },
};
