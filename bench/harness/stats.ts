// Summary statistics of timing samples. All durations in the harness are in
// microseconds, so in-process and whole-process figures share one unit.

export interface Stats {
  n: number;
  median: number;
  p99: number;
  min: number;
  max: number;
  mean: number;
}

export function summarize(samples: readonly number[]): Stats {
  if (samples.length === 0) throw new Error("summarize: no samples");
  const s = [...samples].sort((a, b) => a - b);
  const mid = s.length >> 1;
  const median = s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
  let sum = 0;
  for (const x of s) sum += x;
  return { n: s.length, median, p99: percentile(s, 0.99), min: s[0]!, max: s[s.length - 1]!, mean: sum / s.length };
}

/** Nearest-rank percentile of an ascending array. */
export function percentile(sorted: readonly number[], q: number): number {
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil(q * sorted.length)));
  return sorted[rank - 1]!;
}
