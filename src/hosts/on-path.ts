// Whether the word a rewrite inserts, `rtk`, runs an rtk where the rewritten
// command will run: the first executable `rtk` on PATH, as a shell finds it, is
// this rtk (same real path) or another install of the rtk package. A walk of the
// PATH entries with stat and realpath; no process is spawned (hooks run this
// before every command an agent issues).
import { accessSync, constants, existsSync, readFileSync, realpathSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";

export type Reach = { ok: true; path: string } | { ok: false; why: string };

/** The first executable regular file `name` on `pathVar`, as a POSIX shell searches it; relative entries are read from `cwd`. */
export function findOnPath(name: string, pathVar: string | undefined, cwd: string): string | null {
  if (pathVar === undefined) return null;
  for (const entry of pathVar.split(":")) {
    const file = resolve(cwd, entry === "" ? "." : entry, name);
    // Not there, or not executable: the shell goes on to the next entry too.
    if (statSync(file, { throwIfNoEntry: false })?.isFile() && executable(file)) return file;
  }
  return null;
}

/** The launcher (`bin/rtk`) of the running rtk: the one that started it, else the one beside its bundle. */
export function selfLauncher(env: Record<string, string | undefined>): string | null {
  const self = env["RTK_SELF"];
  if (self && existsSync(self)) return self;
  const script = process.argv[1];
  if (!script) return null;
  const launcher = join(dirname(resolve(script)), "..", "bin", "rtk");
  return existsSync(launcher) ? launcher : null;
}

/** Whether `file` may be executed by this process. */
export function executable(file: string): boolean {
  try {
    accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function real(p: string): string | null {
  try {
    return realpathSync.native(p);
  } catch {
    return null;
  }
}

/** Whether `launcher` (a real path) is the `bin/rtk` of an installed or checked-out rtk package. */
function isRtkPackage(launcher: string): boolean {
  const root = dirname(dirname(launcher));
  // Another package is called rtk on the npm registry: this one's build leaves dist/build-id.
  if (join(root, "bin", "rtk") !== launcher || !existsSync(join(root, "dist", "rtk.cjs")) || !existsSync(join(root, "dist", "build-id"))) return false;
  try {
    return (JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { name?: unknown }).name === "rtk";
  } catch {
    return false;
  }
}

/** Whether `found` (an `rtk` a shell finds) is this rtk (same real path) or another install of the rtk package. */
export function isRtkLauncher(found: string, env: Record<string, string | undefined>): boolean {
  const target = real(found);
  const self = selfLauncher(env);
  return target !== null && ((self !== null && real(self) === target) || isRtkPackage(target));
}

/** Where `rtk` resolves on the environment's PATH, and whether it is an rtk that runs the rewritten command. */
export function rtkReach(env: Record<string, string | undefined>, cwd: string): Reach {
  const found = findOnPath("rtk", env["PATH"], cwd);
  if (!found) return { ok: false, why: "`rtk` is not on PATH" };
  if (isRtkLauncher(found, env)) return { ok: true, path: found };
  return { ok: false, why: `\`rtk\` on PATH is ${found}, which is not an rtk launcher` };
}

/** What to do about it, in one line. */
export const ON_PATH_FIX = "install rtk globally (npm install -g <rtk's folder or tarball>) or link it into a folder on PATH: rtk init --link ~/.local/bin";
