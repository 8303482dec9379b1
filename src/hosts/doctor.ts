// `rtk doctor`: for every installed host, is the hook registered, does its
// command start an rtk of this version, does a sample event piped through the
// installed command come back rewritten, and does the rewritten command run;
// and whether the `rtk` a rewrite inserts is on PATH. The sample is a route
// that has a filter (awareness.ts), so doctor names no tool of its own.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { VERSION } from "../version.js";
import { geminiDecide } from "../permissions/gemini-match.js";
import { allows } from "../permissions/pattern.js";
import { OPENED_BY_RTK_RULES } from "../permissions/replacement.js";
import { loadRules } from "../permissions/sources.js";
import type { Env } from "../config/hooks.js";
import { groupInstalled, hookBinary, installStatus } from "./install.js";
import { findOnPath, ON_PATH_FIX } from "./on-path.js";
import { loginShellCommand, reachFix, reachIn, type CommandShell } from "./host-shell.js";
import { sampleCommand } from "./awareness.js";
import { HOSTS, installOf } from "./index.js";
import { tryLoadConfig } from "../config/load.js";
import { sessionContext } from "../text/markers.js";
import type { Check, Host, Where } from "./types.js";

export type { Check };

export interface HostReport {
  host: string;
  title: string;
  scope: string;
  file: string;
  checks: Check[];
}

export interface DoctorReport {
  version: string;
  hosts: HostReport[];
  ok: boolean;
}

export function doctor(where: Where): DoctorReport {
  const hosts: HostReport[] = [];
  const seen = new Set<string>();
  for (const h of HOSTS) {
    if (!h.install) continue;
    const host = installOf(h as Host & { install: NonNullable<Host["install"]> });
    for (const scope of ["global", "project"] as const) {
      const s = installStatus(host, scope, where);
      if (!s || (!s.installed && !s.problem) || seen.has(s.file)) continue;
      seen.add(s.file);
      const checks: Check[] = [];
      const reinstall = `rtk init --agent ${host.name} --${scope}`;
      if (s.problem) checks.push({ name: "settings", ok: false, detail: s.problem, fix: `fix ${s.file} by hand, then ${reinstall}` });
      else checks.push({ name: "registered", ok: true, detail: s.file });
      checks.push(onPathCheck(where, h.shell ?? "inherited"));
      if (s.command) checks.push(...commandChecks(h, s.command, reinstall, where));
      if (s.command && h.session) checks.push(sessionCheck(h, s.command, groupInstalled(host, s.file, h.session), reinstall, where));
      if (h.tier === "plugin" && host.target.kind === "file") checks.push(...pluginChecks(h, s.file, reinstall, where));
      if (h.doctor?.checks) checks.push(...h.doctor.checks(where, s.file));
      if (h.engine) checks.push(...broadRtkRules(h, where));
      hosts.push({ host: host.name, title: host.title, scope, file: s.file, checks });
    }
  }
  return { version: VERSION, hosts, ok: hosts.every((h) => h.checks.every((c) => c.ok)) };
}

function commandChecks(host: Host, command: string, reinstall: string, where: Where): Check[] {
  const word = hookBinary(command, host.name);
  if (!word) return [{ name: "command", ok: false, detail: `cannot read the hook command ${JSON.stringify(command)}`, fix: reinstall }];
  // A project's hook names `rtk` as found on PATH.
  const bin = word.includes("/") ? word : findOnPath(word, where.env["PATH"], where.cwd);
  try {
    if (!bin) throw new Error();
    accessSync(bin, constants.X_OK);
  } catch {
    return [{ name: "binary", ok: false, detail: `${bin ?? `\`${word}\` on PATH`} is missing or not executable`, fix: bin ? reinstall : ON_PATH_FIX }];
  }
  const checks: Check[] = [];
  const v = spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 10000 });
  const version = (v.stdout ?? "").trim().replace(/^rtk /, "");
  checks.push(
    version === VERSION
      ? { name: "version", ok: true, detail: `${bin} is rtk ${version}` }
      : { name: "version", ok: false, detail: `${bin} is rtk ${version || "(no answer)"}, this is rtk ${VERSION}`, fix: reinstall },
  );
  const sample = sampleCommand();
  if (!host.doctor || sample === null) return checks;
  const cwd = mkdtempSync(join(tmpdir(), "rtk-doctor-"));
  try {
    const event = host.doctor.sample(sample, cwd);
    const t = spawnSync("/bin/sh", ["-c", command], { input: event, encoding: "utf8", cwd, timeout: 15000, env: sampleEnv(host, sample, cwd, where.env) });
    const rewritten = `rtk ${sample}`;
    const run = { status: t.status, stdout: t.stdout ?? "", stderr: t.stderr ?? "" };
    const answered = host.doctor.answered ? host.doctor.answered(run, rewritten) : run.status === 0 && run.stdout.includes(JSON.stringify(rewritten).slice(1, -1));
    if (!answered) {
      checks.push({
        name: "self-test",
        ok: false,
        detail: `a sample event with \`${sample}\` came back as exit ${run.status} ${JSON.stringify((run.stdout || run.stderr).slice(0, 200))}`,
        fix: reinstall,
      });
      return checks;
    }
    checks.push({ name: "self-test", ok: true, detail: `a sample event with \`${sample}\` came back as \`${rewritten}\`` });
    checks.push(rewrittenRuns(rewritten, cwd, where, host.shell ?? "inherited"));
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
  return checks;
}

/**
 * The session-start entry: installed beside the hook, and its command answers
 * a sample session start with rtk's context (or with nothing, when the config
 * switches it off).
 */
function sessionCheck(host: Host, command: string, installed: boolean, reinstall: string, where: Where): Check {
  const session = host.session!;
  const at = session.arrayPath.join(".");
  if (!installed) return { name: "session context", ok: false, detail: `no entry of rtk's under "${at}": the agent is not told what rtk's markers mean`, fix: reinstall };
  const config = tryLoadConfig(where.env, where.cwd);
  const on = !config || config.hooks.session_context;
  // Not recorded: doctor's sample is no session.
  const t = spawnSync("/bin/sh", ["-c", command], { input: session.sample(where.cwd), encoding: "utf8", cwd: where.cwd, timeout: 15000, env: { ...where.env, RTK_NO_TRACK: "1" } });
  const expected = on ? session.answer(sessionContext()).stdout : session.silent.stdout;
  if (t.status === 0 && (t.stdout ?? "") === expected) {
    return {
      name: "session context",
      ok: true,
      detail: on ? `a sample session start under "${at}" gets rtk's context` : `off (hooks.session_context = false): a session start under "${at}" gets nothing`,
    };
  }
  return { name: "session context", ok: false, detail: `a sample session start came back as exit ${t.status} ${JSON.stringify((t.stdout || t.stderr || "").slice(0, 200))}`, fix: reinstall };
}

/**
 * The hook's environment for the sample. A host that judges the rewritten
 * command gets a rewrite only for a command it would run unprompted: the sample
 * runs with a HOME (inside the temporary folder) whose rules allow it, so the
 * check is of the hook and not of the user's rules. rtk's own caches stay where
 * they are.
 */
function sampleEnv(host: Host, sample: string, cwd: string, env: Env): Record<string, string | undefined> {
  const files = host.engine && host.doctor?.allowing?.(sample);
  if (!files) return env;
  const home = join(cwd, ".home");
  for (const [rel, text] of Object.entries(files)) {
    mkdirSync(dirname(join(home, rel)), { recursive: true });
    writeFileSync(join(home, rel), text);
  }
  const realHome = env["HOME"] || homedir();
  const { CLAUDE_CONFIG_DIR: _config, CLAUDE_PROJECT_DIR: _project, ...rest } = env;
  return {
    ...rest,
    HOME: home,
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_CACHE_HOME: env["XDG_CACHE_HOME"] || join(realHome, ".cache"),
    XDG_DATA_HOME: env["XDG_DATA_HOME"] || join(realHome, ".local", "share"),
  };
}

/**
 * Allow rules that name `rtk` broadly (`rtk:*`, `rtk git *`): rtk's hook never
 * hands back a rewrite they would let through where the command itself would be
 * asked, but a command the agent types behind `rtk` runs under them unasked.
 */
function broadRtkRules(host: Host, where: Where): Check[] {
  const { rules } = loadRules(host.rules, where.cwd, where.env, () => {});
  const gemini = rules.gemini;
  // Gemini CLI's rules decide by priority: a command is opened by the allow rule that decides it.
  const allowRules = gemini
    ? [...new Set(gemini.rules.filter((r) => r.decision === "allow").map((r) => r.rule))].map((rule) => ({ rule, allows: (c: string) => geminiDecide(gemini, c)?.rule === rule }))
    : rules.allow.map((rule) => ({ rule, allows: (c: string) => allows(rule, c) }));
  return allowRules.flatMap(({ rule, allows }): Check[] => {
    const opened = OPENED_BY_RTK_RULES.filter((c) => allows(c));
    if (!opened.length) return [];
    return [
      {
        name: "rtk allow rule",
        ok: true,
        warning: true,
        detail: `the allow rule \`${rule}\` lets ${opened.map((c) => `\`${c}\``).join(", ")} run without asking when the agent types them; rtk never rewrites into it a command ${host.title} would ask about`,
        fix: `narrow it to the read-only commands you meant, or remove it: rtk rewrites only what ${host.title} would run unasked as typed, and needs no rule of its own`,
      },
    ];
  });
}

/** Every host runs the rewritten `rtk …` through the PATH of its shell, whatever path its hook command names. */
function onPathCheck(where: Where, shell: CommandShell): Check {
  const reach = reachIn(shell, where.env, where.cwd, { fresh: true });
  const on = shell === "login" ? "on your login shell's PATH" : "on PATH";
  return reach.ok
    ? { name: "on PATH", ok: true, detail: `\`rtk\` ${on} is ${reach.path}` }
    : { name: "on PATH", ok: false, detail: `${reach.why}: hooks leave every command unchanged`, fix: reachFix(shell, where.env, where.cwd, { fresh: true }) };
}

/** The rewrite is only as good as the command it hands back: run it where the agent would, in the host's shell. */
function rewrittenRuns(rewritten: string, cwd: string, where: Where, shell: CommandShell = "inherited"): Check {
  const run = shell === "login" ? loginShellCommand(where.env, rewritten) : { file: "/bin/sh", args: ["-c", rewritten] };
  const x = spawnSync(run.file, run.args, { encoding: "utf8", cwd, timeout: 15000, env: where.env, stdio: ["ignore", "pipe", "pipe"] });
  const ran = x.status !== null && x.status !== 126 && x.status !== 127;
  return ran
    ? { name: "rewritten command", ok: true, detail: `\`${rewritten}\` ran in a temporary folder (exit ${x.status})` }
    : {
        name: "rewritten command",
        ok: false,
        detail: `\`${rewritten}\` did not run (${x.status === null ? "no exit status" : `exit ${x.status}`}: ${JSON.stringify((x.stderr || x.stdout || "").trim().slice(0, 200))})`,
        fix: reachFix(shell, where.env, where.cwd, { fresh: true }),
      };
}

/** Imports the library a plugin names, as the plugin does, and rewrites `command` with it. */
const PLUGIN_PROBE = `const [lib, host, command] = process.argv.slice(1);
const { pathToFileURL } = await import("node:url");
const m = await import(pathToFileURL(lib).href);
const r = m.rewrite(command, { host, cwd: process.cwd(), warn() {} });
process.stdout.write(JSON.stringify({ command: r.command }));`;

/** A plugin's library is there, and rewrites the sample in-process as the plugin would; the rewritten command runs. */
function pluginChecks(host: Host, file: string, reinstall: string, where: Where): Check[] {
  const text = readFileSync(file, "utf8");
  const lib = /const RTK_LIB = ("[^"]*")/.exec(text)?.[1];
  const path = lib ? (JSON.parse(lib) as string) : null;
  if (!path || !existsSync(path)) return [{ name: "library", ok: false, detail: `the plugin's library ${path ?? "(none)"} is missing`, fix: reinstall }];
  const checks: Check[] = [{ name: "library", ok: true, detail: `the plugin imports ${path}` }];
  const sample = sampleCommand();
  if (sample === null) return checks;
  const cwd = mkdtempSync(join(tmpdir(), "rtk-doctor-"));
  try {
    const t = spawnSync(process.execPath, ["--input-type=module", "-e", PLUGIN_PROBE, path, host.name, sample], { encoding: "utf8", cwd, timeout: 15000, env: where.env });
    const rewritten = `rtk ${sample}`;
    let got: unknown = null;
    try {
      got = (JSON.parse(t.stdout) as { command?: unknown }).command;
    } catch {
      // reported below
    }
    if (got !== rewritten) {
      const said = got === null ? JSON.stringify((t.stderr || t.stdout || "").trim().slice(0, 200)) : JSON.stringify(got);
      checks.push({ name: "self-test", ok: false, detail: `the plugin's library did not rewrite \`${sample}\` (${said})`, fix: reinstall });
      return checks;
    }
    checks.push({ name: "self-test", ok: true, detail: `the plugin's library rewrote \`${sample}\` as \`${rewritten}\`` });
    checks.push(rewrittenRuns(rewritten, cwd, where));
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
  return checks;
}
