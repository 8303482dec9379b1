// Cline: no hook that can replace a command; an instructions file asks the model to type `rtk …` itself.
import { join } from "node:path";
import { rulesFileOrFolder, rulesOnlyHost } from "./targets.js";

export const cline = rulesOnlyHost({
  name: "cline",
  title: "Cline",
  // `.clinerules` is a file or a folder of rule files; in a folder, rtk's block is a file of its own.
  file: (root) => rulesFileOrFolder(join(root, ".clinerules"), "rtk.md"),
});
