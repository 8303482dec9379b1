// The tool's output as lines: bytes split at newlines (UTF-8 decoded across
// chunks, a line longer than MAX_LINE handed over cut), and each line shaped as
// the filter's line form asks (see LineForm).
import { StringDecoder } from "node:string_decoder";
import type { LineForm } from "../filters/types.js";
import { stripAnsi } from "../text/ansi.js";

/** Past this, a line without its end is handed over in pieces (a 100 MB line must not be held). */
export const MAX_LINE = 1 << 20;

/**
 * Splits a byte stream into lines; `ended` says whether the line had its
 * newline, `plain` that it holds no CR and no escape byte (most chunks hold
 * none, and a byte search per chunk is cheaper than two searches per line).
 * A line longer than MAX_LINE is handed over as its first MAX_LINE characters,
 * with `cut` the count of those dropped (memory holds no more than that).
 */
export class LineSplitter {
  private decoder = new StringDecoder("utf8");
  private carry = "";
  private carryPlain = true;
  /** Inside a line past MAX_LINE: the characters dropped so far, or -1. */
  private dropped = -1;
  /**
   * The bytes are not all UTF-8 text without NULs: some reached the filter as
   * U+FFFD (a U+FFFD of the text's own counts too; printing its bytes is as exact).
   */
  binary = false;

  /** The bytes of the last chunk that end in the middle of a character (the decoder holds them). */
  private tail: Buffer = Buffer.alloc(0);

  constructor(private readonly emit: (line: string, ended: boolean, plain: boolean, cut: number) => void) {}

  /**
   * Hands back what is held of the unfinished line, as the bytes that came,
   * and stops splitting: from here on the stream's bytes are the caller's.
   */
  drain(): Buffer {
    const held = Buffer.concat([Buffer.from(this.carry), this.tail]);
    this.carry = "";
    this.tail = Buffer.alloc(0);
    this.decoder = new StringDecoder("utf8");
    this.dropped = -1;
    return held;
  }

  push(b: Buffer): void {
    this.tail = incompleteTail(b);
    const plain = b.indexOf(0x0d) < 0 && b.indexOf(0x1b) < 0 && b.indexOf(0x9b) < 0;
    let fresh = this.decoder.write(b);
    this.binary ||= b.indexOf(0) >= 0 || fresh.includes("\ufffd");
    if (this.dropped >= 0) {
      const nl = fresh.indexOf("\n");
      this.carryPlain &&= plain;
      if (nl < 0) {
        this.dropped += fresh.length;
        return;
      }
      this.emit(this.carry, true, this.carryPlain, this.dropped + nl);
      this.carry = "";
      this.carryPlain = true;
      this.dropped = -1;
      fresh = fresh.slice(nl + 1);
    }
    const text = this.carry + fresh;
    let start = 0;
    let linePlain = plain && this.carryPlain;
    for (;;) {
      const nl = text.indexOf("\n", start);
      if (nl < 0) break;
      this.emit(text.slice(start, nl), true, linePlain, 0);
      linePlain = plain;
      start = nl + 1;
    }
    this.carry = text.slice(start);
    this.carryPlain = linePlain;
    if (this.carry.length > MAX_LINE) {
      this.dropped = this.carry.length - MAX_LINE;
      this.carry = this.carry.slice(0, MAX_LINE);
    }
  }

  end(): void {
    const tail = this.decoder.end();
    this.binary ||= tail.includes("\ufffd");
    if (this.dropped >= 0) this.emit(this.carry, false, false, this.dropped + tail.length);
    else if (this.carry + tail) this.emit(this.carry + tail, false, false, 0);
    this.carry = "";
    this.carryPlain = true;
    this.dropped = -1;
  }
}

/** The last bytes of a chunk that start a UTF-8 character it does not finish. */
function incompleteTail(b: Buffer): Buffer {
  for (let back = 1; back <= 3 && back <= b.length; back++) {
    const byte = b[b.length - back]!;
    if ((byte & 0xc0) === 0x80) continue;
    const need = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1;
    return need > back ? b.subarray(b.length - back) : Buffer.alloc(0);
  }
  return Buffer.alloc(0);
}

/** A raw line as the filter's line form has it (see LineForm). */
export function formed(raw: string, form: LineForm): string {
  switch (form) {
    case "terminal":
      return stripAnsi(terminalLine(raw));
    case "text":
      return stripAnsi(raw);
    case "patch":
      return raw;
    case "verbatim":
      return raw;
  }
}

/** What a terminal shows of a line: a CR at its end dropped, only the last CR-separated segment. */
function terminalLine(line: string): string {
  const l = line.endsWith("\r") ? line.slice(0, -1) : line;
  const cr = l.lastIndexOf("\r");
  return cr >= 0 ? l.slice(cr + 1) : l;
}

/**
 * The numbers of the lines as the recall entry holds them (both streams' bytes
 * in the order they came, counted by their newlines), for `rtk recall <id>
 * --lines A-B`: `chunk` before a stream's chunk is split, `ending` before a
 * stream's last line without a newline is handed over, `line` for each line
 * handed over, in order. A line starts where its first byte came.
 */
export class RawLineNumbers {
  private newlines = 0;
  /** Where each stream's unfinished line started. */
  private readonly pending: [number | null, number | null] = [null, null];
  private before: number | null = null;
  private base = 0;
  private index = 0;
  /** The number of the line handed over last. */
  current = 0;

  chunk(s: 0 | 1, b: Uint8Array): void {
    let n = 0;
    for (let i = b.indexOf(10); i >= 0; i = b.indexOf(10, i + 1)) n++;
    this.before = this.pending[s];
    this.base = this.newlines;
    this.index = 0;
    this.newlines += n;
    if (b.length && b[b.length - 1] === 10) this.pending[s] = null;
    else if (n === 0) this.pending[s] ??= this.base + 1;
    else this.pending[s] = this.base + n + 1;
  }

  ending(s: 0 | 1): void {
    this.before = this.pending[s];
    this.base = this.newlines;
    this.index = 0;
    this.pending[s] = null;
  }

  line(): number {
    this.current = this.index === 0 && this.before !== null ? this.before : this.base + 1 + this.index;
    this.index++;
    return this.current;
  }
}
