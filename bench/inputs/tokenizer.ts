// Exact token counts for the savings figures: o200k (the GPT-4o family's BPE)
// from gpt-tokenizer, loaded only when a benchmark asks for it (it takes a few
// hundred milliseconds and tens of MB to load). Without the package the counts
// fall back to the bytes/4 estimate, and the tables say so.

export interface Tokenizer {
  /** "o200k (gpt-tokenizer)" or "bytes/4 (gpt-tokenizer not installed)". */
  name: string;
  exact: boolean;
  count(text: string): number;
}

/** The usual estimate: one token per four bytes. */
export function estimateTokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text) / 4);
}

export async function loadTokenizer(): Promise<Tokenizer> {
  try {
    const o200k = await import("gpt-tokenizer/encoding/o200k_base");
    // Tool output may hold text that looks like a special token (`<|endoftext|>`):
    // it is counted as the plain text it is, not refused.
    const plain = { allowedSpecial: new Set<string>(), disallowedSpecial: new Set<string>() };
    return { name: "o200k (gpt-tokenizer)", exact: true, count: (text) => (text ? o200k.countTokens(text, plain) : 0) };
  } catch (e) {
    const why = e instanceof Error ? e.message.split("\n")[0] : String(e);
    return { name: `bytes/4 (gpt-tokenizer could not be loaded: ${why})`, exact: false, count: estimateTokens };
  }
}
