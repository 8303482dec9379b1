// Trae: no hook; rtk's rules block in the project rules file,
// `.trae/rules/project_rules.md`, which Trae applies to every request in the
// project (a rule file of another name may apply only when its front matter
// says so), asks the model to type `rtk …` itself. Trae's personal rules are
// kept by its settings, not in a file, so only the project scope.
import { join } from "node:path";
import { project, rulesHost } from "./targets.js";

export const trae = rulesHost({ name: "trae", title: "Trae" }, { project: (w) => join(project(w, ".trae"), ".trae", "rules", "project_rules.md") }, "project");
