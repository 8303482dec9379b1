// Token counts for the reports. The run path records cheap features of each
// output (features.ts); a linear model over them, fitted against o200k counts
// of the project's fixtures (bench/accounting.bench.ts measures its error),
// estimates the tokens (bench/fit-tokens.ts fits it).
import { existsSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { F, FEATURE_COUNT } from "./features.js";

/** Tokens per unit of each feature (in F's order), fitted by weighted least squares on the token corpus (bench/fit-tokens.ts). */
export const COEFFICIENTS: readonly number[] = [1.52191, -1.58224, -1.74257, -1.53835, -0.42037, -1.12861, -4.0654, 1.46044, 1.93117, 0.21099, 1.56421];

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

/** Raw outputs up to this size whose text is still at hand (a recall entry) are counted exactly at ingestion. */
export const EXACT_BOUND_BYTES = 1 << 20;

/** o200k's ranks, gzipped JSON beside the reports' bundle (as JavaScript they are megabytes; scripts/build.mjs writes them). */
export const RANKS_FILE = "o200k_base.json.gz";

type CountTokens = (text: string) => number;
let counter: CountTokens | null | undefined;

/**
 * Exact o200k tokens of a text, or null when the tokenizer cannot be loaded.
 * Loaded on the first call: a report with no text to count never reads the ranks.
 */
export function exactTokens(text: string): number | null {
  if (counter === undefined) {
    try {
      counter = loadCounter();
    } catch {
      counter = null;
    }
  }
  return counter === null ? null : counter(text);
}

function loadCounter(): CountTokens {
  const here = typeof __filename === "string" ? __filename : join(process.cwd(), "x.js");
  const load = createRequire(here);
  // Bundled, a require is resolved at build time (the encoder's code is small); unbundled ESM (the tests) has none.
  const { GptEncoding } = (typeof require === "function" ? require("gpt-tokenizer/GptEncoding") : load("gpt-tokenizer/GptEncoding")) as {
    GptEncoding: { getEncodingApi(name: string, ranks: () => unknown): { countTokens: CountTokens } };
  };
  const packed = join(dirname(here), RANKS_FILE);
  const ranks = existsSync(packed) ? () => JSON.parse(gunzipSync(readFileSync(packed)).toString("utf8")) as unknown : () => (load("gpt-tokenizer/bpeRanks/o200k_base") as { default: unknown }).default;
  return GptEncoding.getEncodingApi("o200k_base", ranks).countTokens;
}

/** Characters of UTF-8 bytes (continuation bytes are not characters), as charsOf counts them. */
export function charsOfBytes(b: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < b.length; i++) if ((b[i]! & 0xc0) !== 0x80) n++;
  return n;
}
