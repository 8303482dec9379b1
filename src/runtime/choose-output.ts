// What a filtered run prints once the tool has ended (spec/runtime.md, "Never
// worse, never silent"): a pure decision over what the run knows, so that
// every case is one row of a table test.
import type { CompactOutput } from "../filters/types.js";

export interface RunFacts {
  /** The filter hides secrets: its raw output is printed only when it hands it back (returns null). */
  sensitive: boolean;
  /** The filter printed as the tool ran (watch, follow). */
  streaming: boolean;
  /** --raw or RTK_RAW=1. */
  raw: boolean;
  /** The filter threw (at its start, on a line, or at its end). */
  failed: boolean;
  /** What the filter made of the output; null when it did not recognise it, failed, or was not asked (content that is not text). */
  compact: CompactOutput | null;
  /** Bytes of the raw output. */
  rawBytes: number;
  /** The filter reads lines as the tool printed them (a file's content): its raw output keeps its escape sequences. */
  verbatim: boolean;
  /** Lines longer than the splitter holds, which reached the filter cut. */
  overlong: number;
  /** Bytes the recall store keeps of one run. */
  recallLimit: number;
  /** Raw output shorter than this prints as the tool printed it, byte for byte (0: never). */
  passthroughBytes: number;
}

export type OutputChoice =
  /** A sensitive filter failed: nothing of the output, and a word on stderr of how to see it. */
  | { print: "withheld" }
  /** Everything was printed as the run went (a streaming filter that ended with nothing more). */
  | { print: "nothing" }
  /**
   * The raw output as the tool printed it, without escape sequences when
   * `plain`; `short`: because it was shorter than the passthrough size (not
   * a fallback).
   */
  | { print: "raw"; plain: boolean; short?: boolean }
  /**
   * The compact form. `overlong`: lines that reached the filter cut (0: none
   * to mention); `partialRecall`: the output is larger than the recall store
   * keeps, to be said when a handle to it was printed.
   */
  | { print: "compact"; compact: CompactOutput; overlong: number; partialRecall: boolean };

/** The compact form when it is there and worth it; the raw output otherwise (never worse, never silent). */
export function chooseOutput(f: RunFacts): OutputChoice {
  if (f.sensitive && f.failed) return { print: "withheld" };
  if (f.sensitive && f.compact && !f.streaming) return { print: "compact", compact: f.compact, overlong: 0, partialRecall: false };
  if (f.streaming) return f.compact ? { print: "compact", compact: f.compact, overlong: 0, partialRecall: false } : { print: "nothing" };
  if (f.raw || f.compact === null || compactBytes(f.compact) >= f.rawBytes) return { print: "raw", plain: !f.raw && !f.verbatim };
  // A short output costs the agent little whole, and reads as the tool's own.
  if (!f.sensitive && f.rawBytes < f.passthroughBytes) return { print: "raw", plain: false, short: true };
  return { print: "compact", compact: f.compact, overlong: f.verbatim ? 0 : f.overlong, partialRecall: f.rawBytes > f.recallLimit };
}

function compactBytes(c: CompactOutput): number {
  return Buffer.byteLength(c.stdout) + Buffer.byteLength(c.stderr) + Buffer.byteLength(c.before ?? "");
}

/** What stderr says when a sensitive filter failed. */
export function withheldNote(filterId: string, argv: readonly string[]): string {
  return `rtk: the ${filterId} filter failed; its output is withheld because it may hold secrets (\`rtk proxy ${argv.join(" ")}\` prints it)\n`;
}

/** What stderr says when lines reached the filter cut: the compact form was made from less than there was. */
export function overlongNote(lines: number, maxLine: number, id: string): string {
  return `rtk: ${lines} ${lines === 1 ? "line" : "lines"} longer than ${maxLine / (1 << 20)} MiB reached the filter cut; the whole output: [rtk recall ${id}]\n`;
}

/** What stderr says when the recall entry holds only the start of the output. */
export function partialRecallNote(id: string, limit: number, rawBytes: number): string {
  return `rtk: [rtk recall ${id}] holds the first ${limit / (1 << 20)} MiB of the ${(rawBytes / (1 << 20)).toFixed(1)} MiB output\n`;
}
