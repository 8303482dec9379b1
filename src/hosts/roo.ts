// Roo Code: no hook; a rule file of its own in Roo's rules folder (every file
// there is read into the system prompt) asks the model to type `rtk …` itself.
import { rulesFolderHost } from "./targets.js";

export const roo = rulesFolderHost({ name: "roo", title: "Roo Code", folder: ".roo" });
