// The words bash reserves where a command starts, in one list: the scanner makes
// them keyword tokens, and the canonical printer keeps a command named like one
// from being read as the keyword.
export const RESERVED_WORDS = [
  "if",
  "then",
  "elif",
  "else",
  "fi",
  "for",
  "select",
  "in",
  "do",
  "done",
  "while",
  "until",
  "case",
  "esac",
  "function",
  "coproc",
  "time",
  "{",
  "}",
  "!",
  "[[",
  "]]",
] as const;

export type ReservedWord = (typeof RESERVED_WORDS)[number];

const RESERVED: ReadonlySet<string> = new Set(RESERVED_WORDS);

export function isReservedWord(text: string): text is ReservedWord {
  return RESERVED.has(text);
}
