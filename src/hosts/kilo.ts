// Kilo Code: no hook; a rule file of its own in Kilo's rules folder (every file
// there is read as a rule) asks the model to type `rtk …` itself.
import { rulesFolderHost } from "./targets.js";

export const kilo = rulesFolderHost({ name: "kilo", title: "Kilo Code", aliases: ["kilocode"], folder: ".kilocode" });
