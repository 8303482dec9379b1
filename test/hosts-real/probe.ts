// node --import tsx test/hosts-real/probe.ts <host> [--rtk] [--mode M] [--settings JSON] [--files JSON] [--untrusted] cmd...
// --settings is the project's rules file (Claude Code's .claude/settings.json, OpenCode's opencode.json, Gemini CLI's .gemini/settings.json,
// Qwen Code's .qwen/settings.json); --files writes files under HOME (Continue CLI's .continue/permissions.yaml).
// SHOWLOG=1 prints the host's output, SHOWRECEIVED=1 what the model received, SHOWREQ=1 each request the model stand-in got (chat completions).
import { claudeDriver } from "./hosts/claude.js";
import { codexDriver } from "./hosts/codex.js";
import { copilotDriver } from "./hosts/copilot.js";
import { geminiDriver } from "./hosts/gemini.js";
import { opencodeDriver } from "./hosts/opencode.js";
import { piDriver } from "./hosts/pi.js";
import { qwenDriver } from "./hosts/qwen.js";
import { continueDriver } from "./hosts/continue.js";
import { session, type HostDriver } from "./support/session.js";
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
const DRIVERS: Record<string, () => HostDriver | { error: string }> = {
  claude: claudeDriver,
  codex: codexDriver,
  opencode: opencodeDriver,
  gemini: geminiDriver,
  pi: piDriver,
  copilot: copilotDriver,
  qwen: qwenDriver,
  continue: continueDriver,
};
const d = DRIVERS[host!]?.() ?? { error: `unknown host (${Object.keys(DRIVERS).join(", ")})` };
if ("error" in d) throw new Error(d.error);
const rulesFile: Record<string, string> = { opencode: "work/app/opencode.json", gemini: "work/app/.gemini/settings.json", qwen: "work/app/.qwen/settings.json" };
if (settings) files[rulesFile[host!] ?? "work/app/.claude/settings.json"] = settings;
const t = Date.now();
const r = await session(d, cmds, { withRtk, mode, files, trustHook });
for (const o of r.outcomes) console.log(`${o.fate.padEnd(7)} ${o.rewritten ? "R" : "-"}${o.recorded ? "r" : "-"} ${o.command.padEnd(40)} | ${JSON.stringify(o.received).slice(0, 90)}`);
console.log(`${Date.now() - t} ms; hook errors: ${r.hookErrors.length}`);
if (process.env.SHOWLOG) console.log(r.log);
if (process.env.SHOWRECEIVED) for (const o of r.outcomes) console.log(`--- ${o.command}\n${o.received}`);
if (process.env.SHOWREQ)
  // The tools offered and the messages, shortened: which requests are the session's and which a side task's.
  for (const q of r.requests) {
    const b = q.body as { tools?: { function?: { name?: string } }[]; messages?: { role?: string; content?: unknown }[] };
    console.log(q.path, (b.tools ?? []).map((t) => t.function?.name).join(","), JSON.stringify(b.messages?.map((m) => [m.role, JSON.stringify(m.content).slice(0, 80)])).slice(0, 600));
  }
