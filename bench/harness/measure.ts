// In-process timing: warm up, then time calls one by one, so the p99 shows the
// slow calls (GC pauses, deoptimisations) that an average would hide.
import { performance } from "node:perf_hooks";
import { summarize, type Stats } from "./stats.js";

export interface MeasureOptions {
  /** Untimed calls first, so the JIT has compiled what is timed. */
  warmup: number;
  /** Timed samples wanted. */
  samples: number;
  /** Calls per sample, for functions too fast for one timer reading each. */
  batch?: number;
  /** Stop early once this much time is spent, after at least `minSamples`. */
  budgetMs?: number;
  minSamples?: number;
}

/** Results are kept here so the optimiser cannot drop the measured call. */
export let sink: unknown;

/** Times `fn`; the stats are microseconds per call. */
export function measure(fn: () => unknown, opts: MeasureOptions): Stats {
  const batch = opts.batch ?? 1;
  for (let i = 0; i < opts.warmup; i++) sink = fn();
  const samples: number[] = [];
  const deadline = opts.budgetMs === undefined ? Infinity : performance.now() + opts.budgetMs;
  const minSamples = opts.minSamples ?? 1;
  while (samples.length < opts.samples) {
    const t0 = performance.now();
    for (let b = 0; b < batch; b++) sink = fn();
    samples.push(((performance.now() - t0) * 1000) / batch);
    if (samples.length >= minSamples && performance.now() > deadline) break;
  }
  return summarize(samples);
}

export interface EachResult<T> {
  item: T;
  stats: Stats;
}

/**
 * Times `fn` on every item, round-robin (item 1, 2, …, n, then again), so the
 * JIT sees the same mix of inputs it sees in use instead of specialising on one.
 * Returns the stats per item and over all calls, and the rounds run (a time
 * budget may stop it early, after `minRounds`).
 */
export function measureEach<T>(
  items: readonly T[],
  fn: (item: T) => unknown,
  opts: { warmupRounds: number; rounds: number; budgetMs?: number; minRounds?: number },
): { each: EachResult<T>[]; all: Stats; rounds: number } {
  for (let r = 0; r < opts.warmupRounds; r++) for (const item of items) sink = fn(item);
  const samples = items.map((): number[] => []);
  const deadline = opts.budgetMs === undefined ? Infinity : performance.now() + opts.budgetMs;
  let rounds = 0;
  while (rounds < opts.rounds) {
    for (let i = 0; i < items.length; i++) {
      const t0 = performance.now();
      sink = fn(items[i]!);
      samples[i]!.push((performance.now() - t0) * 1000);
    }
    rounds++;
    if (rounds >= (opts.minRounds ?? 1) && performance.now() > deadline) break;
  }
  return { each: items.map((item, i) => ({ item, stats: summarize(samples[i]!) })), all: summarize(samples.flat()), rounds };
}

/** What one timer reading around an empty call costs; part of every sample. */
export function timerOverhead(): number {
  return measure(() => undefined, { warmup: 1000, samples: 10000 }).median;
}
