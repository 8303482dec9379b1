// Fits the token estimate's coefficients (src/accounting/tokens.ts) on the token
// corpus: least squares weighted by 1 / exact tokens, so that each text counts by its
// relative error and one long log does not decide the fit. Prints the coefficients
// and the errors they give. Run: npx tsx bench/fit-tokens.ts
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { features, FEATURE_COUNT } from "../src/accounting/features.js";
import { COEFFICIENTS } from "../src/accounting/tokens.js";
import { tokenCorpus } from "./harness/token-corpus.js";

const rows = tokenCorpus().map((t) => ({ f: features(t.text), exact: countTokens(t.text) }));

// Normal equations (XᵀWX) c = XᵀWy, solved by Gaussian elimination with partial pivoting.
const n = FEATURE_COUNT;
const a = Array.from({ length: n }, () => new Array<number>(n + 1).fill(0));
for (const { f, exact } of rows) {
  const w = 1 / Math.max(1, exact);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) a[i]![j]! += w * f[i]! * f[j]!;
    a[i]![n]! += w * f[i]! * exact;
  }
}
for (let col = 0; col < n; col++) {
  let pivot = col;
  for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
  [a[col], a[pivot]] = [a[pivot]!, a[col]!];
  for (let r = 0; r < n; r++) {
    if (r === col) continue;
    const k = a[r]![col]! / a[col]![col]!;
    for (let j = col; j <= n; j++) a[r]![j]! -= k * a[col]![j]!;
  }
}
const fitted = a.map((row, i) => Number((row[n]! / row[i]!).toFixed(5)));

function errors(c: readonly number[]): string {
  let exact = 0;
  let est = 0;
  const rel: number[] = [];
  for (const r of rows) {
    const x = Math.max(1, Math.round(r.f.reduce((s, v, i) => s + v * c[i]!, 0)));
    exact += r.exact;
    est += x;
    rel.push((Math.abs(x - r.exact) / Math.max(1, r.exact)) * 100);
  }
  rel.sort((p, q) => p - q);
  const at = (q: number) => rel[Math.min(rel.length - 1, Math.floor(q * rel.length))]!.toFixed(1);
  return `aggregate ${(((est - exact) / exact) * 100).toFixed(2)} %, per text median ${at(0.5)} %, p90 ${at(0.9)} %, max ${at(1)} %`;
}

console.log(`${rows.length} texts`);
console.log(`in use: ${errors(COEFFICIENTS)}`);
console.log(`fitted: ${errors(fitted)}`);
console.log(`[${fitted.join(", ")}]`);
