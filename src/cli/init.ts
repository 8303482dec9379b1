// `rtk init --agent <host> [--global|--project] [--dry-run] [--uninstall]`, `rtk init --show`,
// and `rtk init --link <dir>` (a symlink to this rtk in a folder on PATH).
import { existsSync, lstatSync, readlinkSync, realpathSync, symlinkSync, unlinkSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { parseOptions } from "./args.js";
import { familiesLine, unknownWord, usageError } from "./help.js";
import { init, installStatus } from "../hosts/install.js";
import { rtkReach } from "../hosts/on-path.js";
import { reachFix, reachIn, type CommandShell } from "../hosts/host-shell.js";
import { hostNamed, INSTALLS, installFor } from "../hosts/index.js";
import { TIER_LABEL, type RtkPaths, type Scope } from "../hosts/types.js";
import { makeDirs } from "../fs/make-dirs.js";

export function initCli(args: string[]): number {
  const opts = parseOptions("init", args, { boolean: ["global", "project", "dry-run", "uninstall", "show"], string: ["agent", "link"] });
  if (typeof opts === "number") return opts;
  if (opts._.length) return usageError("init", `unexpected \`${opts._[0]}\` (the host goes after --agent)`);
  const where = { env: process.env, cwd: process.cwd() };
  if (opts["show"]) {
    process.stdout.write(showHosts(where));
    return 0;
  }
  const name = opts["agent"] as string | undefined;
  const link = opts["link"] as string | undefined;
  if (link === "" || (link === undefined && args.includes("--link"))) return usageError("init", "--link needs a folder (one on PATH, such as ~/.local/bin)");
  const hosts = INSTALLS.map((i) => i.name);
  const host = name ? installFor(name) : undefined;
  if (name !== undefined && !host) return usageError("init", name ? unknownWord("host", name, hosts) : `--agent needs a host; valid: ${hosts.join(", ")}`);
  if (!host && link === undefined) return usageError("init", `say which host: --agent <host>; valid: ${hosts.join(", ")}`);
  if (opts["global"] && opts["project"]) return usageError("init", "choose one of --global and --project");
  const uninstall = Boolean(opts["uninstall"]);
  const dryRun = Boolean(opts["dry-run"]);
  const paths = rtkPaths();
  let status = 0;
  if (link !== undefined) status = linkCli(resolve(link), paths.bin, uninstall, dryRun);
  if (host) {
    const scope: Scope = opts["global"] ? "global" : opts["project"] ? "project" : host.defaultScope;
    const r = init({ host, scope, uninstall, dryRun, where, paths });
    if (r.diff && dryRun) process.stdout.write(r.diff);
    (r.action === "error" ? process.stderr : process.stdout).write((r.action === "error" ? "rtk init: " : "") + r.message + "\n");
    if (r.action === "error") status = 1;
  }
  // With --link, the link's own report says whether rtk is on PATH now; a host's login shell is asked either way.
  const shell = host ? (hostNamed(host.name)?.shell ?? "inherited") : "inherited";
  if (host && !uninstall && status === 0 && (link === undefined || shell !== "inherited")) warnIfNotOnPath(shell, host.title);
  return status;
}

/** Every host rtk installs into: its tier, and per scope where it writes and whether rtk is there. */
function showHosts(where: { env: NodeJS.ProcessEnv; cwd: string }): string {
  const home = where.env["HOME"];
  const shown = (f: string) => (home && f.startsWith(home + "/") ? "~" + f.slice(home.length) : f);
  const lines: string[] = [];
  for (const host of INSTALLS) {
    const tier = hostNamed(host.name)?.tier;
    lines.push(`${host.title} (rtk init --agent ${host.name}): ${tier ? TIER_LABEL[tier] : "—"}`);
    for (const scope of ["global", "project"] as const) {
      const s = installStatus(host, scope, where);
      if (!s) continue;
      const state = s.problem ? `problem: ${s.problem}` : s.installed ? "installed" : "not installed";
      const label = `${scope}${scope === host.defaultScope ? " (default)" : ""}`;
      lines.push(`  ${label.padEnd(18)} ${state.padEnd(14)} ${shown(s.file)}${s.installed && s.command ? `  [${s.command}]` : ""}`);
    }
  }
  lines.push("", `${familiesLine()}; rtk help lists them.`);
  return lines.join("\n") + "\n";
}

/** A rewrite inserts the word `rtk`: where the host's shell does not run it, hooks leave every command alone. */
function warnIfNotOnPath(shell: CommandShell, title: string): void {
  const reach = reachIn(shell, process.env, process.cwd(), { fresh: true });
  if (reach.ok) return;
  const where = shell === "login" ? `${title} runs commands in your login shell, where` : "there";
  process.stderr.write(
    `rtk init: warning: ${reach.why}, so the hook will leave commands unchanged (${where} a rewritten \`rtk …\` command could not run).\n` +
      `  fix: ${reachFix(shell, process.env, process.cwd(), { fresh: true })}\n`,
  );
}

/** `--link <dir>`: `<dir>/rtk` → this launcher; an existing file that is not such a link is left alone. */
function linkCli(dir: string, bin: string, uninstall: boolean, dryRun: boolean): number {
  const file = join(dir, "rtk");
  let current: string | null = null;
  let exists = false;
  try {
    const st = lstatSync(file);
    exists = true;
    if (st.isSymbolicLink()) current = resolve(dir, readlinkSync(file));
  } catch {
    // nothing there yet
  }
  const ours = current !== null && (current === bin || realOrNull(current) === bin);
  if (uninstall) {
    if (!ours) {
      process.stdout.write(`rtk init: no link of this rtk at ${file}; nothing changed\n`);
      return 0;
    }
    if (!dryRun) unlinkSync(file);
    process.stdout.write(`${dryRun ? "would remove" : "removed"} the link ${file}\n`);
    return 0;
  }
  if (ours) {
    process.stdout.write(`${file} already links to ${bin}; nothing changed\n`);
  } else if (exists) {
    process.stderr.write(`rtk init: ${file} exists and is not a link to this rtk; it was left untouched\n`);
    return 1;
  } else {
    if (dryRun) {
      process.stdout.write(`would link ${file} → ${bin} (dry run, nothing written)\n`);
      return 0;
    }
    try {
      makeDirs(dir);
      symlinkSync(bin, file);
    } catch (e) {
      process.stderr.write(`rtk init: cannot link ${file}: ${(e as Error).message}\n`);
      return 1;
    }
    process.stdout.write(`linked ${file} → ${bin}\n`);
  }
  const reach = rtkReach(process.env, process.cwd());
  if (!reach.ok) process.stderr.write(`rtk init: ${dir} is not on PATH (or another \`rtk\` comes first): add it to PATH in your shell's profile\n`);
  return 0;
}

function realOrNull(p: string): string | null {
  try {
    return realpathSync(p);
  } catch {
    return null;
  }
}

/** The absolute paths of this rtk: the launcher hooks run and the library plugins import. */
export function rtkPaths(): RtkPaths {
  const self = process.env["RTK_SELF"];
  let bin = self && existsSync(self) ? self : "";
  if (!bin) {
    const script = process.argv[1] ? resolve(process.argv[1]) : "";
    const launcher = script ? join(dirname(script), "..", "bin", "rtk") : "";
    bin = launcher && existsSync(launcher) ? launcher : script;
  }
  try {
    bin = realpathSync(bin);
  } catch {
    // keep the path as found
  }
  return { bin, lib: join(dirname(bin), "..", "dist", "lib.mjs") };
}
