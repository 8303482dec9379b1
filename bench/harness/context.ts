// What a benchmark file receives, and where the built artifact is: benchmarks
// measure dist/, because that is what users run.
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type * as Lib from "../../src/lib.js";
import type { Report } from "./report.js";

export const root = fileURLToPath(new URL("../../", import.meta.url));
export const rtkCli = join(root, "dist/rtk.cjs");

export interface BenchContext {
  /** The short CI run: same tables, fewer iterations. */
  ci: boolean;
  report: Report;
}

export type Bench = (ctx: BenchContext) => Promise<void>;

/** Picks the iteration count for the current mode. */
export function scale(ctx: BenchContext, counts: { full: number; ci: number }): number {
  return ctx.ci ? counts.ci : counts.full;
}

/** The built library (dist/lib.mjs), typed by the source it was built from. */
export async function loadBuiltLib(): Promise<typeof Lib> {
  return (await import(pathToFileURL(join(root, "dist/lib.mjs")).href)) as typeof Lib;
}
