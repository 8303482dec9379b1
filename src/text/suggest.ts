// "Did you mean …?": the nearest valid word to a mistyped one. Small and
// table-free, so the hot path (rewrite, hook) can use it.

/** The candidate closest to `word` (edit distance at most a third of its length, or a prefix), if any. */
export function closest(word: string, candidates: readonly string[]): string | null {
  let best: string | null = null;
  let bestD = Infinity;
  for (const c of candidates) {
    const d = c.startsWith(word) && word.length >= 2 ? 0.5 : distance(word, c);
    if (d < bestD) [best, bestD] = [c, d];
  }
  return bestD <= Math.max(1, Math.floor(word.length / 3)) ? best : null;
}

/** Edits between two words, a swap of neighbours counting as one (`gti` → `git`). */
function distance(a: string, b: string): number {
  let before: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) cur[j] = Math.min(cur[j]!, before[j - 2]! + 1);
    }
    [before, prev] = [prev, cur];
  }
  return prev[b.length]!;
}

/** "unknown X `w` (did you mean `v`?); valid: a, b, c" */
export function unknownWord(what: string, word: string, valid: readonly string[]): string {
  const near = closest(word, valid);
  return `unknown ${what} \`${word}\`${near ? ` (did you mean \`${near}\`?)` : ""}; valid: ${valid.join(", ")}`;
}
