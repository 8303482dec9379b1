// AGENTS.md: no hook; an instructions file asks the model to type `rtk …` itself.
import { join } from "node:path";
import { rulesOnlyHost } from "./targets.js";

export const agents = rulesOnlyHost({ name: "agents", title: "AGENTS.md", file: (root) => join(root, "AGENTS.md") });
