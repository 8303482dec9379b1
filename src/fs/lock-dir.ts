// A lock folder: mkdir either makes it or finds it there, so one process at a
// time holds it, whatever Node or driver each runs with.
import { mkdirSync, rmdirSync, statSync } from "node:fs";

/**
 * Takes the lock folder `path`; one older than `staleMs` was left by a process
 * that was killed, and is taken over. Returns what releases it, or null while
 * another process holds it.
 */
export function tryLockDir(path: string, staleMs: number): (() => void) | null {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      mkdirSync(path, { mode: 0o700 });
      return () => {
        try {
          rmdirSync(path);
        } catch {
          // gone already
        }
      };
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      const st = statSync(path, { throwIfNoEntry: false });
      if (!st || Date.now() - st.mtimeMs <= staleMs) return null;
      try {
        rmdirSync(path);
      } catch {
        // taken over meanwhile
      }
    }
  }
  return null;
}
