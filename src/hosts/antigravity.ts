// Google Antigravity: its documentation describes rules and workflows, no hook
// rtk could answer, so a workspace rule file of rtk's own asks the model to type
// `rtk …` itself. Antigravity keeps a workspace's rules in `.agents/rules/` now
// and still reads the older `.agent/rules/`, but only when there is no
// `.agents/`: in a project that has only `.agent/`, rtk's rule goes there, so a
// new `.agents/` does not hide the project's own rules. The front matter makes
// the rule always on (a rule without it may be applied only when the model
// picks it).
import { existsSync } from "node:fs";
import { join } from "node:path";
import { NO_RULES } from "../permissions/sources.js";
import { rulesBlock } from "./awareness.js";
import { project } from "./targets.js";
import type { Host, Where } from "./types.js";

export const ANTIGRAVITY_MARKER = "rtk:antigravity-rule";

function ruleFile(w: Where): string {
  const root = project(w, ".agents");
  const folder = !existsSync(join(root, ".agents")) && existsSync(join(root, ".agent")) ? ".agent" : ".agents";
  return join(root, folder, "rules", "rtk.md");
}

export const antigravity: Host = {
  name: "antigravity",
  title: "Google Antigravity",
  tier: "rules-only",
  aliases: ["agy"],
  rules: NO_RULES,
  install: {
    target: {
      kind: "file",
      marker: ANTIGRAVITY_MARKER,
      what: "rule file",
      content: () => `---\ntrigger: always_on\n---\n\n<!-- ${ANTIGRAVITY_MARKER}: written by \`rtk init --agent antigravity\`, which removes it with --uninstall -->\n${rulesBlock()}\n`,
    },
    // Its global rules are ~/.gemini/GEMINI.md, which Gemini CLI reads too: the rule stays in the workspace.
    scopes: { project: ruleFile },
    defaultScope: "project",
  },
};
