// The user's cache of V8 startup snapshots ($XDG_CACHE_HOME/rtk/snapshots/<build>/<node path>/):
// a snapshot only works with the Node binary that made it, so each is made where
// rtk runs, for the binary that runs it. The launcher (bin/rtk) uses an entry
// whose blob, sidecar and Node binary share one modification time; when there is
// none, the plain start calls `requestSnapshot`, which starts the build in the
// background (detached, never waited for) unless one is running or a recent one
// failed. The build itself (`buildSnapshots`) runs in dist/snapshot-build.cjs.
import { chmodSync, closeSync, existsSync, fsyncSync, openSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, writeSync } from "node:fs";
import { createHash } from "node:crypto";
import { dirname, join } from "node:path";
import { makeDirs } from "../fs/make-dirs.js";

/** The snapshots: the hot path's (rewrite, hook) and the runtime's; the launcher picks one by command. */
export const SNAPSHOTS = [
  { name: "rtk", bundle: "rtk-hot.cjs" },
  { name: "rtk-run", bundle: "rtk-run.cjs" },
] as const;

/** A build that is older than this holds a lock nobody releases (it was killed). */
const STALE_LOCK_MS = 10 * 60_000;
/** After n failed builds in a row, the next waits 10 min × 2^(n-1), at most a day. */
const backoffMs = (failures: number) => Math.min(10 * 60_000 * 2 ** Math.max(0, failures - 1), 24 * 3600_000);

function ageMs(file: string, now: number): number | null {
  try {
    return now - statSync(file).mtimeMs;
  } catch {
    return null;
  }
}

function failures(entry: string): number {
  try {
    return Number.parseInt(readFileSync(join(entry, "failed"), "utf8"), 10) || 1;
  } catch {
    return 0;
  }
}

/** Whether a build should start now: none running, and no recent failure to back off from. */
export function buildWanted(entry: string, now = Date.now()): boolean {
  const lock = ageMs(join(entry, "lock"), now);
  if (lock !== null && lock < STALE_LOCK_MS) return false;
  const failed = ageMs(join(entry, "failed"), now);
  return failed === null || failed >= backoffMs(failures(entry));
}

/**
 * Called by a plain start that the launcher told where the snapshot belongs:
 * starts its build in the background. Never throws, never waits, never writes
 * to stdout or stderr (the hook path must not change because of it).
 */
export function requestSnapshot(env: NodeJS.ProcessEnv, dist: string): void {
  const entry = env["RTK_SNAPSHOT_ENTRY"];
  const node = env["RTK_SNAPSHOT_NODE"];
  // Not for the commands rtk runs: they start their own rtk, with their own launcher.
  delete env["RTK_SNAPSHOT_ENTRY"];
  delete env["RTK_SNAPSHOT_NODE"];
  if (!entry || !node || env["RTK_SNAPSHOT_BUILD"] === "0") return;
  try {
    if (!buildWanted(entry)) return;
    // A cache that cannot be made is no reason to start a build on every run.
    makeDirs(entry, 0o700);
    const builder = join(dist, "snapshot-build.cjs");
    if (!existsSync(builder)) return;
    // Loaded only here: the hot path from a snapshot never gets this far.
    void import("node:child_process")
      .then(({ spawn }) => {
        const child = spawn(node, [builder, entry, node, dist], { detached: true, stdio: "ignore", env: { ...env } });
        child.on("error", () => {});
        child.unref();
      })
      .catch(() => {});
  } catch {
    // The next plain start asks again.
  }
}

export interface BuildResult {
  ok: boolean;
  /** Why it did not build (when ok is false), or "busy" when another build holds the lock. */
  why?: string;
}

function writeSynced(file: string, data: string, mode: number): void {
  const fd = openSync(file, "w", mode);
  try {
    writeSync(fd, data);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

function fsyncFile(file: string): void {
  const fd = openSync(file, "r+");
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/**
 * Builds both snapshots of `dist` for the Node binary `node` into `entry`, under
 * a lock: each blob is made in a temporary file, checked by running it, given the
 * binary's modification time and renamed into place; its sidecar (size and
 * SHA-256) follows the same way. Owner-only throughout.
 */
export function buildSnapshots(entry: string, node: string, dist: string, spawnSync: typeof import("node:child_process").spawnSync): BuildResult {
  const lock = join(entry, "lock");
  let fd: number;
  try {
    makeDirs(entry, 0o700);
    fd = openSync(lock, "wx", 0o600);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST") return { ok: false, why: `cannot write ${entry}: ${(e as Error).message}` };
    if ((ageMs(lock, Date.now()) ?? 0) < STALE_LOCK_MS) return { ok: false, why: "busy" };
    rmSync(lock, { force: true });
    try {
      fd = openSync(lock, "wx", 0o600);
    } catch {
      return { ok: false, why: "busy" };
    }
  }
  closeSync(fd);
  const tmps: string[] = [];
  try {
    const id = readFileSync(join(dist, "build-id"), "utf8").trim();
    const bin = statSync(node);
    noteUser(entry, id, node, dist);
    for (const s of SNAPSHOTS) {
      const blob = join(entry, `${s.name}.blob`);
      const tmp = join(entry, `.${s.name}.blob.${process.pid}.tmp`);
      tmps.push(tmp);
      const made = spawnSync(node, ["--snapshot-blob", tmp, "--build-snapshot", join(dist, s.bundle)], {
        stdio: ["ignore", "ignore", "pipe"],
        encoding: "utf8",
        timeout: 300_000,
        env: { ...process.env, RTK_DISABLED: "", RTK_SNAPSHOT_ENTRY: "", RTK_SNAPSHOT_NODE: "" },
      });
      if (made.status !== 0) throw new Error(`node --build-snapshot ${s.bundle} exited ${made.status ?? made.signal}: ${String(made.stderr).trim().slice(0, 300)}`);
      smokeTest(node, tmp, s.name, dist, spawnSync);
      chmodSync(tmp, 0o600);
      fsyncFile(tmp);
      const bytes = readFileSync(tmp);
      const sha256 = createHash("sha256").update(bytes).digest("hex");
      sameTime(node, tmp, spawnSync);
      renameSync(tmp, blob);
      const side = `${tmp}.ok`;
      tmps.push(side);
      const record = { size: bytes.length, sha256, build: id, node, nodeVersion: process.version, nodeIno: bin.ino, nodeSize: bin.size, nodeMtimeMs: bin.mtimeMs };
      writeSynced(side, JSON.stringify(record) + "\n", 0o600);
      sameTime(node, side, spawnSync);
      renameSync(side, `${blob}.ok`);
    }
    codeCache(entry, node, dist, spawnSync);
    rmSync(join(entry, "failed"), { force: true });
    return { ok: true };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    try {
      writeFileSync(join(entry, "failed"), `${failures(entry) + 1}\n${why}\n`, { mode: 0o600 });
    } catch {
      // nowhere to record it
    }
    return { ok: false, why };
  } finally {
    for (const t of tmps) rmSync(t, { force: true });
    rmSync(lock, { force: true });
  }
}

/** The code caches of the full CLI and the reports beside the runtime's blob (src/cli/code-cache.ts); without them meta-commands compile their bundles. */
function codeCache(entry: string, node: string, dist: string, spawnSync: typeof import("node:child_process").spawnSync): void {
  spawnSync(node, [join(dist, "snapshot-build.cjs"), "--code-cache", dist, entry], {
    stdio: "ignore",
    timeout: 60_000,
    env: { ...process.env, RTK_DISABLED: "", RTK_NO_TRACK: "1", RTK_SNAPSHOT_ENTRY: "", RTK_SNAPSHOT_NODE: "" },
  });
}

/**
 * Gives `file` the modification time of `ref` to the nanosecond, which the
 * launcher's \`[ -nt ]\` compares (utimes from JavaScript rounds it).
 */
function sameTime(ref: string, file: string, spawnSync: typeof import("node:child_process").spawnSync): void {
  const r = spawnSync("touch", ["-r", ref, file], { stdio: "ignore" });
  if (r.status !== 0) throw new Error(`touch -r ${ref} ${file} failed`);
}

/** A blob that does not start and answer as rtk is not kept (a bad one would crash every start). */
function smokeTest(node: string, blob: string, name: string, dist: string, spawnSync: typeof import("node:child_process").spawnSync): void {
  const argv = name === "rtk" ? ["rewrite", "--host", "none", "git status"] : ["--version"];
  const r = spawnSync(node, ["--snapshot-blob", blob, "--", ...argv], {
    encoding: "utf8",
    timeout: 60_000,
    cwd: dirname(dist),
    // RTK_NO_TRACK: a smoke test is not a decision about an agent's command.
    env: {
      PATH: process.env["PATH"] ?? "",
      HOME: dirname(blob),
      RTK_SELF: join(dist, "..", "bin", "rtk"),
      RTK_NO_PATH_CHECK: "1",
      RTK_NO_TRACK: "1",
      RTK_ROUTES: "all",
      XDG_CONFIG_HOME: dirname(blob),
    },
  });
  const expected = name === "rtk" ? "rtk git status" : "rtk ";
  if (!String(r.stdout).startsWith(expected)) throw new Error(`the ${name} snapshot does not answer (exit ${r.status ?? r.signal}): ${String(r.stderr).trim().slice(0, 300)}`);
}

/** `<cache>/snapshots` from an entry `<cache>/snapshots/<build><node path>`, or null when it is not one. */
function snapshotsDir(entry: string, id: string, node: string): string | null {
  const tail = `/${id}${node}`;
  return entry.endsWith(tail) ? entry.slice(0, -tail.length) : null;
}

/** Each build folder lists the dist folders that use it (for pruneSnapshots). */
function noteUser(entry: string, id: string, node: string, dist: string): void {
  const snapshots = snapshotsDir(entry, id, node);
  if (!snapshots) return;
  const list = join(snapshots, id, "dists");
  const users = readLines(list);
  if (!users.includes(dist)) writeFileSync(list, [...users, dist].join("\n") + "\n", { mode: 0o600 });
}

function readLines(file: string): string[] {
  try {
    return readFileSync(file, "utf8").split("\n").filter(Boolean);
  } catch {
    return [];
  }
}

/**
 * Removes the entries of rtk builds no install uses any more: a build folder goes
 * when none of the dist folders it lists still holds that build (an upgraded,
 * rebuilt or removed rtk), unless it is younger than a build can take.
 */
export function pruneSnapshots(entry: string, node: string, dist: string, now = Date.now()): void {
  const id = readFileSync(join(dist, "build-id"), "utf8").trim();
  const snapshots = snapshotsDir(entry, id, node);
  if (!snapshots) return;
  for (const other of readdirSync(snapshots)) {
    if (other === id) continue;
    const dir = join(snapshots, other);
    const age = ageMs(dir, now);
    if (age === null || age < STALE_LOCK_MS) continue;
    const used = readLines(join(dir, "dists")).some((d) => {
      try {
        return readFileSync(join(d, "build-id"), "utf8").trim() === other;
      } catch {
        return false;
      }
    });
    if (!used) rmSync(dir, { recursive: true, force: true });
  }
}
