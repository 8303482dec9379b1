// Windsurf: no hook; an instructions file asks the model to type `rtk …` itself.
import { join } from "node:path";
import { rulesOnlyHost } from "./targets.js";

export const windsurf = rulesOnlyHost({ name: "windsurf", title: "Windsurf", file: (root) => join(root, ".windsurfrules") });
