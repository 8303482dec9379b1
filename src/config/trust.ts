// The trust store: the SHA-256 of every project config file the user applied
// with `rtk trust`, by absolute path. A project file applies only while its
// content still has the pinned hash, so a repository cannot make rtk hide
// output by shipping or editing `.rtk/config.toml`. The store is owner-only (a
// 0600 file in a 0700 folder), written whole and renamed into place; a store
// that someone else could have written is not believed.
import { createHash, randomBytes } from "node:crypto";
import { chmodSync, closeSync, constants, fstatSync, fsyncSync, lstatSync, openSync, readFileSync, realpathSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { trustStorePath, type Env } from "./paths.js";
import { makeDirs } from "../fs/make-dirs.js";

export interface TrustEntry {
  sha256: string;
  /** ISO time of the `rtk trust` that pinned it. */
  trustedAt: string;
}

export interface TrustStore {
  path: string;
  entries: Map<string, TrustEntry>;
  /** Why the store on disk was not read (it is then empty). */
  problem: string | null;
}

export type TrustState = "trusted" | "untrusted" | "changed";

/**
 * The absolute path a file is trusted under. For `<root>/.rtk/config.toml` the
 * project folder is resolved but `.rtk` is not, so a repository whose `.rtk`
 * links to another project's folder does not inherit that project's trust.
 */
export function trustKey(file: string): string {
  const dir = dirname(file);
  const real = (p: string) => {
    try {
      return realpathSync(p);
    } catch {
      return p;
    }
  };
  return basename(dir) === ".rtk" ? join(real(dirname(dir)), ".rtk", basename(file)) : join(real(dir), basename(file));
}

export function sha256(content: Buffer | string): string {
  return createHash("sha256").update(content).digest("hex");
}

export function readTrustStore(env: Env): TrustStore {
  const path = trustStorePath(env);
  const store: TrustStore = { path, entries: new Map(), problem: null };
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code !== "ENOENT") store.problem = code === "ELOOP" ? `${path} is a symbolic link` : (e as Error).message;
    return store;
  }
  try {
    const st = fstatSync(fd);
    if (typeof process.getuid === "function" && st.uid !== process.getuid()) {
      store.problem = `${path} belongs to another user`;
      return store;
    }
    if (st.mode & 0o022) {
      store.problem = `${path} is writable by other users`;
      return store;
    }
    const doc = JSON.parse(readFileSync(fd, "utf8")) as { version?: unknown; files?: unknown };
    if (doc.version !== 1 || typeof doc.files !== "object" || doc.files === null) throw new Error("not an rtk trust store");
    for (const [file, v] of Object.entries(doc.files as Record<string, unknown>)) {
      const e = v as { sha256?: unknown; trusted_at?: unknown };
      if (typeof e?.sha256 === "string" && /^[0-9a-f]{64}$/.test(e.sha256)) {
        store.entries.set(file, { sha256: e.sha256, trustedAt: typeof e.trusted_at === "string" ? e.trusted_at : "" });
      }
    }
  } catch (e) {
    store.problem = `${path}: ${(e as Error).message}`;
  } finally {
    closeSync(fd);
  }
  return store;
}

export function trustState(store: TrustStore, file: string, content: Buffer): TrustState {
  const entry = store.entries.get(file);
  if (!entry) return "untrusted";
  return entry.sha256 === sha256(content) ? "trusted" : "changed";
}

/** Writes the store whole: a fresh owner-only file renamed over the old one. */
export function writeTrustStore(store: TrustStore): void {
  const dir = dirname(store.path);
  ensureOwnerOnlyDir(dir);
  const files: Record<string, { sha256: string; trusted_at: string }> = {};
  for (const [file, e] of [...store.entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) files[file] = { sha256: e.sha256, trusted_at: e.trustedAt };
  const text = JSON.stringify({ version: 1, files }, null, 2) + "\n";
  const tmp = `${store.path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | (constants.O_NOFOLLOW ?? 0), 0o600);
  try {
    writeSync(fd, text);
    fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    unlinkSync(tmp);
    throw e;
  }
  closeSync(fd);
  try {
    renameSync(tmp, store.path);
  } catch (e) {
    unlinkSync(tmp);
    throw e;
  }
}

function ensureOwnerOnlyDir(dir: string): void {
  makeDirs(dir, 0o700);
  const st = lstatSync(dir);
  if (st.isSymbolicLink() || !st.isDirectory()) throw new Error(`${dir} is not a plain folder`);
  if (typeof process.getuid === "function" && st.uid !== process.getuid()) throw new Error(`${dir} belongs to another user`);
  if ((st.mode & 0o777) !== 0o700) chmodSync(dir, 0o700);
}
