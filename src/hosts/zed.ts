// Zed's agent: no hook; rtk's rules block in the personal instructions file
// (~/.config/zed/AGENTS.md), which applies to every project. A project file is
// not written: Zed reads only the first of `.rules`, `.cursorrules`, …,
// `AGENTS.md`, so a new `.rules` would hide the instructions a project has.
import { join } from "node:path";
import { configHome, rulesHost } from "./targets.js";

export const zed = rulesHost({ name: "zed", title: "Zed" }, { global: (w) => join(configHome(w), "zed", "AGENTS.md") }, "global");
