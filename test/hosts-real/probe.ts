// node --import tsx test/hosts-real/probe.ts <host> [--rtk] [--mode M] [--settings JSON] [--files JSON] [--untrusted] cmd...
// --settings is the project's rules file (Claude Code's .claude/settings.json, OpenCode's opencode.json, Gemini CLI's .gemini/settings.json); --files writes files under HOME.
import { claudeDriver } from "./hosts/claude.js";
import { codexDriver } from "./hosts/codex.js";
import { copilotDriver } from "./hosts/copilot.js";
import { geminiDriver } from "./hosts/gemini.js";
import { opencodeDriver } from "./hosts/opencode.js";
import { piDriver } from "./hosts/pi.js";
import { session } from "./support/session.js";
const args = process.argv.slice(2);
const host = args.shift();
let withRtk = false,
  mode: string | undefined,
  settings: string | undefined,
  files: Record<string, string> = {},
  trustHook = true;
const cmds: string[] = [];
while (args.length) {
  const a = args.shift()!;
  if (a === "--rtk") withRtk = true;
  else if (a === "--mode") mode = args.shift();
  else if (a === "--settings") settings = args.shift();
  else if (a === "--files") files = JSON.parse(args.shift()!);
  else if (a === "--untrusted") trustHook = false;
  else cmds.push(a);
}
const d =
  host === "claude"
    ? claudeDriver()
    : host === "codex"
      ? codexDriver()
      : host === "opencode"
        ? opencodeDriver()
        : host === "gemini"
          ? geminiDriver()
          : host === "pi"
            ? piDriver()
            : host === "copilot"
              ? copilotDriver()
              : { error: "unknown host" };
if ("error" in d) throw new Error(d.error);
const rulesFile: Record<string, string> = { opencode: "work/app/opencode.json", gemini: "work/app/.gemini/settings.json" };
if (settings) files[rulesFile[host!] ?? "work/app/.claude/settings.json"] = settings;
const t = Date.now();
const r = await session(d, cmds, { withRtk, mode, files, trustHook });
for (const o of r.outcomes) console.log(`${o.fate.padEnd(7)} ${o.rewritten ? "R" : "-"}${o.recorded ? "r" : "-"} ${o.command.padEnd(40)} | ${JSON.stringify(o.received).slice(0, 90)}`);
console.log(`${Date.now() - t} ms; hook errors: ${r.hookErrors.length}`);
if (process.env.SHOWLOG) console.log(r.log);
