// How much of a command the rewrite reads before it gives up and rewrites
// nothing. Kept apart from the pipeline, so readers of input can know the
// limits without loading the parser.

export interface CommandLimits {
  /** The longest command read, in UTF-8 bytes. */
  maxBytes: number;
  /**
   * The work of reading it, in steps (a token, or 32 characters moved over,
   * each): the limit that decides, the same on an idle machine and a busy one.
   */
  steps: number;
  /** The last resort, in milliseconds of wall time, far above what the steps cost: a pass whose work the steps do not foresee. */
  timeMs: number;
}

/**
 * The limits of the hot path, where a host waits for the answer before every
 * command: real commands are far below them, and past them the time and memory
 * a parse takes would grow with the input. 5,000 steps is about 200 ms of
 * reading (parse and passes) on a slow machine: the costliest shapes
 * (`x|x|…`, `a; b; …`, generated scripts) take up to 18 µs of CPU a step on a
 * shared two-core EPYC, 90 ms for the whole budget, so a machine 2.2 times
 * slower reaches 200 ms. The largest input of the shared corpora takes 886
 * steps (a 4.8 KB script); a 20 KB generated script, about 4,750.
 * `bench/parse.bench.ts` measures the cost of a step.
 */
export const COMMAND_LIMITS: CommandLimits = { maxBytes: 64 * 1024, steps: 5000, timeMs: 2000 };

/** Whether `src` takes more than `max` bytes in UTF-8, without encoding it when its length settles it. */
export function longerThan(src: string, max: number): boolean {
  if (src.length > max) return true;
  if (src.length * 3 <= max) return false;
  return Buffer.byteLength(src, "utf8") > max;
}

export function sizeText(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}
