import { isUtf8 } from "node:buffer";
import { readFileSync, readSync } from "node:fs";
import { COMMAND_LIMITS, sizeText } from "../rewrite/limits.js";

/** Whether `--help` or `-h` stands among a command's options (before a `--`). */
export function wantsHelp(args: readonly string[]): boolean {
  for (const a of args) {
    if (a === "--") return false;
    if (a === "--help" || a === "-h") return true;
  }
  return false;
}

/** The command text of a meta-command: its argument, or stdin when the argument is `-`. */
export function readCommandArg(arg: string): string {
  if (arg !== "-") return arg;
  return readFileSync(0, "utf8");
}

/**
 * The command for `rtk rewrite`, exactly as given, or an error: a command whose
 * bytes are not UTF-8 would come back with replacement characters in their place
 * (a different command), and one past the rewrite's length limit is not kept
 * whole in memory (the rest of stdin is read and dropped, so the writer sees no
 * broken pipe).
 */
export function readExactCommand(arg: string): string {
  if (arg !== "-") {
    if (arg.includes("\uFFFD") && !argIsUtf8(arg)) throw new Error("the command is not valid UTF-8 (rtk cannot give it back byte for byte)");
    return arg;
  }
  const max = COMMAND_LIMITS.maxBytes;
  const buf = Buffer.alloc(max + 1);
  let size = 0;
  for (;;) {
    const n = readSync(0, buf, size, buf.length - size, null);
    if (n === 0) break;
    size += n;
    if (size === buf.length) {
      const scratch = Buffer.alloc(64 * 1024);
      while (readSync(0, scratch, 0, scratch.length, null) > 0);
      throw new Error(`command longer than ${sizeText(max)}: not read`);
    }
  }
  const bytes = buf.subarray(0, size);
  if (!isUtf8(bytes)) throw new Error("the command is not valid UTF-8 (rtk cannot give it back byte for byte)");
  return bytes.toString("utf8");
}

/**
 * Node decodes arguments with U+FFFD in place of bytes that are not UTF-8; the
 * raw bytes on Linux say whether one was typed. Elsewhere it cannot be told, and
 * the command is treated as not UTF-8 (it is then left as it is).
 */
function argIsUtf8(arg: string): boolean {
  let raw: Buffer;
  try {
    raw = readFileSync("/proc/self/cmdline");
  } catch {
    return false;
  }
  let matched = false;
  for (let start = 0; start < raw.length;) {
    let end = raw.indexOf(0, start);
    if (end < 0) end = raw.length;
    const bytes = raw.subarray(start, end);
    if (bytes.toString("utf8") === arg) {
      if (!isUtf8(bytes)) return false;
      matched = true;
    }
    start = end + 1;
  }
  return matched;
}
