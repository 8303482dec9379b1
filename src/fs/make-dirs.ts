// `mkdir -p`, one level at a time. Node's recursive mkdir never returns when a
// level cannot be made for a reason other than a missing parent (a folder
// under /proc, say): rtk's run and hook paths must not hang on a data or
// cache folder set to such a place.
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";

export function makeDirs(dir: string, mode = 0o777): void {
  const missing: string[] = [];
  for (let d = dir; !existsSync(d) && dirname(d) !== d; d = dirname(d)) missing.push(d);
  for (const d of missing.reverse()) {
    try {
      mkdirSync(d, { mode });
    } catch (e) {
      // Made meanwhile by another process: as good as made here.
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
    }
  }
}
