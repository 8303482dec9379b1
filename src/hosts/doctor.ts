// `rtk doctor`: for every installed host, is the hook registered, does its
// command start an rtk of this version, and does a sample event piped through
// the installed command come back rewritten; and whether the `rtk` a rewrite
// inserts is on PATH.
import { spawnSync } from "node:child_process";
import { accessSync, constants, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parse } from "../../grammar/parse.js";
import { literalValue } from "../ast/literal.js";
import { VERSION } from "../version.js";
import { installStatus } from "./install.js";
import { ON_PATH_FIX, rtkReach } from "./on-path.js";
import { HOSTS } from "./index.js";
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

const SELF_TEST_COMMAND = "git status";

export function doctor(where: Where): DoctorReport {
  const hosts: HostReport[] = [];
  const seen = new Set<string>();
  for (const h of HOSTS) {
    if (!h.install) continue;
    const host = { name: h.name, title: h.title, ...h.install };
    for (const scope of ["global", "project"] as const) {
      const s = installStatus(host, scope, where);
      if (!s || (!s.installed && !s.problem) || seen.has(s.file)) continue;
      seen.add(s.file);
      const checks: Check[] = [];
      const reinstall = `rtk init --agent ${host.name} --${scope}`;
      if (s.problem) checks.push({ name: "settings", ok: false, detail: s.problem, fix: `fix ${s.file} by hand, then ${reinstall}` });
      else checks.push({ name: "registered", ok: true, detail: s.file });
      checks.push(onPathCheck(where));
      if (s.command) checks.push(...commandChecks(h, s.command, reinstall, where));
      if (host.target.kind === "file") checks.push(pluginCheck(s.file, reinstall));
      if (h.doctor?.checks) checks.push(...h.doctor.checks(where));
      hosts.push({ host: host.name, title: host.title, scope, file: s.file, checks });
    }
  }
  return { version: VERSION, hosts, ok: hosts.every((h) => h.checks.every((c) => c.ok)) };
}

function commandChecks(host: Host, command: string, reinstall: string, where: Where): Check[] {
  const r = parse(command);
  const cmd = r.ok ? r.script.stmts[0]?.cmd : undefined;
  const bin = cmd?.kind === "SimpleCommand" && cmd.words[0] ? literalValue(cmd.words[0]) : null;
  if (!bin) return [{ name: "command", ok: false, detail: `cannot read the hook command ${JSON.stringify(command)}`, fix: reinstall }];
  try {
    accessSync(bin, constants.X_OK);
  } catch {
    return [{ name: "binary", ok: false, detail: `${bin} is missing or not executable`, fix: reinstall }];
  }
  const checks: Check[] = [];
  const v = spawnSync(bin, ["--version"], { encoding: "utf8", timeout: 10000 });
  const version = v.stdout.trim().replace(/^rtk /, "");
  checks.push(
    version === VERSION
      ? { name: "version", ok: true, detail: `${bin} is rtk ${version}` }
      : { name: "version", ok: false, detail: `${bin} is rtk ${version || "(no answer)"}, this is rtk ${VERSION}`, fix: reinstall },
  );
  const cwd = mkdtempSync(join(tmpdir(), "rtk-doctor-"));
  try {
    if (!host.doctor) return checks;
    const event = host.doctor.sample(SELF_TEST_COMMAND, cwd);
    const t = spawnSync("/bin/sh", ["-c", command], {
      input: event,
      encoding: "utf8",
      cwd,
      timeout: 15000,
      // Route every known tool so the self-test sees a rewrite whichever filters exist.
      env: { ...where.env, RTK_ROUTES: "all" },
    });
    const rewritten = `rtk ${SELF_TEST_COMMAND}`;
    const answered = host.doctor.answered ? host.doctor.answered(t, rewritten) : t.status === 0 && t.stdout.includes(rewritten);
    checks.push(
      answered
        ? { name: "self-test", ok: true, detail: `a sample event came back as \`rtk ${SELF_TEST_COMMAND}\`` }
        : { name: "self-test", ok: false, detail: `the installed command answered exit ${t.status} ${JSON.stringify((t.stdout || t.stderr).slice(0, 200))}`, fix: reinstall },
    );
  } finally {
    rmSync(cwd, { recursive: true, force: true });
  }
  return checks;
}

/** Every host runs the rewritten `rtk …` through PATH, whatever path its hook command names. */
function onPathCheck(where: Where): Check {
  const reach = rtkReach(where.env, where.cwd);
  return reach.ok
    ? { name: "on PATH", ok: true, detail: `\`rtk\` on PATH is ${reach.path}` }
    : { name: "on PATH", ok: false, detail: `${reach.why}: hooks leave every command unchanged`, fix: ON_PATH_FIX };
}

function pluginCheck(file: string, reinstall: string): Check {
  const text = readFileSync(file, "utf8");
  const lib = /const RTK_LIB = ("[^"]*")/.exec(text)?.[1];
  const path = lib ? (JSON.parse(lib) as string) : null;
  return path && existsSync(path)
    ? { name: "library", ok: true, detail: `the plugin imports ${path}` }
    : { name: "library", ok: false, detail: `the plugin's library ${path ?? "(none)"} is missing`, fix: reinstall };
}
