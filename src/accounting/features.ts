// Cheap features of a text, counted on the run path in one pass over its bytes,
// from which the reports estimate its o200k token count (tokens.ts) without a
// tokenizer on the run path. A BPE token is mostly a word, a run of digits or a
// punctuation mark, so word and run starts carry most of the signal.

/** Indexes into a feature vector. */
export const F = {
  bytes: 0,
  letters: 1,
  digits: 2,
  spaces: 3,
  /** Newlines, carriage returns and tabs. */
  breaks: 4,
  punct: 5,
  /** Lead bytes of multi-byte UTF-8 characters: one per non-ASCII character. */
  wide: 6,
  /** Runs of letters (words). */
  words: 7,
  /** Runs of digits. */
  numbers: 8,
  /** Upper-case letters after a lower-case one (camelCase splits a word in two). */
  humps: 9,
  /** Runs of two or more spaces (indentation). */
  gaps: 10,
} as const;
export const FEATURE_COUNT = 11;

const LETTER = 1;
const UPPER = 2;
const DIGIT = 3;
const SPACE = 4;
const BREAK = 5;
const PUNCT = 6;
const WIDE = 7;
const CONT = 8;
const CLASS = new Uint8Array(256);
for (let b = 0; b < 256; b++) {
  CLASS[b] =
    b >= 0x61 && b <= 0x7a
      ? LETTER
      : b >= 0x41 && b <= 0x5a
        ? UPPER
        : b >= 0x30 && b <= 0x39
          ? DIGIT
          : b === 0x20
            ? SPACE
            : b === 0x0a || b === 0x0d || b === 0x09
              ? BREAK
              : b < 0x80
                ? PUNCT
                : b >= 0xc0
                  ? WIDE
                  : CONT;
}

/** Counts features over chunks of one text, chunk by chunk (a run's output arrives in pieces). */
export class FeatureCounter {
  readonly f: number[] = new Array<number>(FEATURE_COUNT).fill(0);
  private prev = 0;

  add(b: Uint8Array): void {
    const f = this.f;
    let prev = this.prev;
    let letters = 0,
      digits = 0,
      spaces = 0,
      breaks = 0,
      punct = 0,
      wide = 0,
      words = 0,
      numbers = 0,
      humps = 0,
      gaps = 0;
    for (let i = 0; i < b.length; i++) {
      const c = CLASS[b[i]!]!;
      switch (c) {
        case LETTER:
          letters++;
          if (prev !== LETTER && prev !== UPPER) words++;
          break;
        case UPPER:
          letters++;
          if (prev === LETTER) humps++;
          else if (prev !== UPPER) words++;
          break;
        case DIGIT:
          digits++;
          if (prev !== DIGIT) numbers++;
          break;
        case SPACE:
          spaces++;
          // The second space of a run: one gap per run.
          if (prev === SPACE && (i === 0 || b[i - 2] !== 0x20)) gaps++;
          break;
        case BREAK:
          breaks++;
          break;
        case PUNCT:
          punct++;
          break;
        case WIDE:
          wide++;
          break;
        default:
          continue; // a continuation byte keeps the character class of its lead byte
      }
      prev = c;
    }
    this.prev = prev;
    f[0]! += b.length;
    f[1]! += letters;
    f[2]! += digits;
    f[3]! += spaces;
    f[4]! += breaks;
    f[5]! += punct;
    f[6]! += wide;
    f[7]! += words;
    f[8]! += numbers;
    f[9]! += humps;
    f[10]! += gaps;
  }
}

export function features(text: string | Uint8Array): number[] {
  const c = new FeatureCounter();
  c.add(typeof text === "string" ? Buffer.from(text) : text);
  return c.f;
}
