// `rtk init --agent <host> [--global|--project] [--dry-run] [--uninstall]` and `rtk init --show`.
import { existsSync, realpathSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import mri from "mri";
import { init, installStatus } from "../hosts/install.js";
import { INSTALLS, installFor, type RtkPaths, type Scope } from "../hosts/targets.js";

export function initCli(args: string[]): number {
  const opts = mri(args, { boolean: ["global", "project", "dry-run", "uninstall", "show"], string: ["agent"] });
  const where = { env: process.env, cwd: process.cwd() };
  if (opts["show"]) {
    for (const host of INSTALLS) {
      for (const scope of ["global", "project"] as const) {
        const s = installStatus(host, scope, where);
        if (!s) continue;
        const state = s.problem ? `problem: ${s.problem}` : s.installed ? `installed${s.command ? ` (${s.command})` : ""}` : "not installed";
        process.stdout.write(`${host.title.padEnd(15)} ${scope.padEnd(8)} ${state}\n  ${s.file}\n`);
      }
    }
    return 0;
  }
  const name = opts["agent"] as string | undefined;
  const host = name ? installFor(name) : undefined;
  if (!host) {
    process.stderr.write(`usage: rtk init --agent <${INSTALLS.map((i) => i.name).join("|")}> [--global|--project] [--dry-run] [--uninstall]\n       rtk init --show\n`);
    return 2;
  }
  if (opts["global"] && opts["project"]) {
    process.stderr.write("rtk init: choose one of --global and --project\n");
    return 2;
  }
  const scope: Scope = opts["global"] ? "global" : opts["project"] ? "project" : host.defaultScope;
  const r = init({ host, scope, uninstall: Boolean(opts["uninstall"]), dryRun: Boolean(opts["dry-run"]), where, paths: rtkPaths() });
  if (r.diff && opts["dry-run"]) process.stdout.write(r.diff);
  (r.action === "error" ? process.stderr : process.stdout).write((r.action === "error" ? "rtk init: " : "") + r.message + "\n");
  return r.action === "error" ? 1 : 0;
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
