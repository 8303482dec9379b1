// ANSI escape sequences (CSI, OSC and the two-character forms) removed.
/**
 * The escape-introduced forms: CSI, OSC, the two-character ones, and those
 * with intermediate bytes (`ESC ( B`, which terminfo's sgr0 writes before
 * `ESC [ m` on xterm: programs that colour through terminfo end lines with it).
 */
const ESC_FORMS = String.raw`\x1b\[[0-9:;<=>?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\x1b[ -/]+[0-~]`;
/** In text, the one-byte CSI (0x9b) too. */
const ANSI = new RegExp(String.raw`${ESC_FORMS}|\x9b[0-9:;<=>?]*[ -/]*[@-~]`, "g");

export function stripAnsi(s: string): string {
  return s.includes("\x1b") || s.includes("\x9b") ? s.replace(ANSI, "") : s;
}

/** In raw bytes, the escape-introduced forms only: byte 0x9b can be part of a UTF-8 character. */
const ESC_SEQUENCE = new RegExp(ESC_FORMS, "g");
/** An escape sequence that may still be arriving: held back for the next chunk. */
const OPEN_SEQUENCE = /\x1b(?:\[[0-9:;<=>?]*[ -/]*|\][^\x07\x1b]*\x1b?|[ -/]+)?$/;

/**
 * Strips escape sequences from raw bytes as they come, chunk by chunk, with
 * every other byte kept exactly (a sequence cut between two chunks is held
 * until the next one).
 */
export class AnsiByteStripper {
  private carry = "";

  push(b: Buffer): Buffer {
    if (!this.carry && !b.includes(0x1b)) return b;
    let text = (this.carry + b.toString("latin1")).replace(ESC_SEQUENCE, "");
    const open = OPEN_SEQUENCE.exec(text);
    this.carry = open && text.length - open.index <= 4096 ? text.slice(open.index) : "";
    if (this.carry) text = text.slice(0, open!.index);
    return Buffer.from(text, "latin1");
  }

  end(): Buffer {
    const rest = Buffer.from(this.carry, "latin1");
    this.carry = "";
    return rest;
  }
}
