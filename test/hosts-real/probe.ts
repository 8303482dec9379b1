// node --import tsx test/hosts-real/probe.ts <claude|opencode> [--rtk] [--mode M] [--settings JSON] [--file PATH TEXT] cmd...
// --settings is the project's rules file (Claude Code's .claude/settings.json, OpenCode's opencode.json); --file writes any file under HOME.
import { claudeDriver } from "./hosts/claude.js";
import { opencodeDriver } from "./hosts/opencode.js";
import { session } from "./support/session.js";
const args = process.argv.slice(2);
const host = args.shift();
let withRtk = false,
  mode: string | undefined;
const files: Record<string, string> = {};
const cmds: string[] = [];
const settingsFile = host === "opencode" ? "work/app/opencode.json" : "work/app/.claude/settings.json";
while (args.length) {
  const a = args.shift()!;
  if (a === "--rtk") withRtk = true;
  else if (a === "--mode") mode = args.shift();
  else if (a === "--settings") files[settingsFile] = args.shift()!;
  else if (a === "--file") files[args.shift()!] = args.shift()!;
  else cmds.push(a);
}
const d = host === "claude" ? claudeDriver() : host === "opencode" ? opencodeDriver() : { error: "unknown host" };
if ("error" in d) throw new Error(d.error);
const t = Date.now();
const r = await session(d, cmds, { withRtk, mode, files });
for (const o of r.outcomes) console.log(`${o.fate.padEnd(7)} ${o.rewritten ? "R" : "-"}${o.recorded ? "r" : "-"} ${o.command.padEnd(40)} | ${JSON.stringify(o.received).slice(0, 90)}`);
console.log(`${Date.now() - t} ms; hook errors: ${r.hookErrors.length}`);
if (process.env.SHOWLOG) console.log(r.log);
