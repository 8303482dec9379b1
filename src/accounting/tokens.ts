// Token counts for the reports. The run path records cheap features of each
// output (features.ts); a linear model over them, fitted against o200k counts
// of the project's fixtures (bench/accounting.bench.ts measures its error),
// estimates the tokens (bench/fit-tokens.ts fits it).
import { F, FEATURE_COUNT } from "./features.js";

/** Tokens per unit of each feature (in F's order), fitted by weighted least squares on the token corpus (bench/fit-tokens.ts). */
export const COEFFICIENTS: readonly number[] = [1.51462, -1.51919, -1.77908, -1.48733, -0.4743, -1.19387, -4.02629, 1.20803, 2.1868, 0.40716, 1.09326];

/** Estimated o200k tokens of a text with these features, scaled to `bytes` when the features covered only its start. */
export function estimateTokens(f: readonly number[] | undefined, bytes: number): number {
  if (!f || f.length !== FEATURE_COUNT || !f[F.bytes]) return Math.round(bytes / 4);
  let t = 0;
  for (let i = 0; i < FEATURE_COUNT; i++) t += COEFFICIENTS[i]! * f[i]!;
  const scale = bytes > f[F.bytes]! ? bytes / f[F.bytes]! : 1;
  return Math.max(bytes ? 1 : 0, Math.round(t * scale));
}

/** Characters of a text with these features (UTF-8 continuation bytes are not characters), scaled like the tokens. */
export function charsOf(f: readonly number[] | undefined, bytes: number): number {
  if (!f || f.length !== FEATURE_COUNT || !f[F.bytes]) return bytes;
  const chars = f[F.letters]! + f[F.digits]! + f[F.spaces]! + f[F.breaks]! + f[F.punct]! + f[F.wide]!;
  return Math.round(chars * (bytes > f[F.bytes]! ? bytes / f[F.bytes]! : 1));
}

/** Claude Code cuts a Bash result at 30,000 characters: what the agent would have been shown of a raw output. */
export const HOST_CHAR_CAP = 30_000;

/** Tokens saved by a run: what the host would have shown of the raw output minus what rtk printed; 0 for a raw fallback. */
export function savedTokens(r: { fellBack: boolean; rawTokens: number; rawChars: number; outTokens: number }): number {
  if (r.fellBack) return 0;
  const shown = r.rawChars > HOST_CHAR_CAP ? Math.round((r.rawTokens * HOST_CHAR_CAP) / r.rawChars) : r.rawTokens;
  return shown - r.outTokens;
}
