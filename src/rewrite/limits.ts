// How much of a command the rewrite reads before it gives up and rewrites
// nothing. Kept apart from the pipeline, so readers of input can know the
// limits without loading the parser.

export interface CommandLimits {
  /** The longest command read, in UTF-8 bytes. */
  maxBytes: number;
  /** What the parse and the passes after it may take, in milliseconds of wall time. */
  timeMs: number;
}

/**
 * The limits of the hot path, where a host waits for the answer before every
 * command: real commands are far below them, and past them the time and memory
 * a parse takes would grow with the input.
 */
export const COMMAND_LIMITS: CommandLimits = { maxBytes: 64 * 1024, timeMs: 200 };

/** Whether `src` takes more than `max` bytes in UTF-8, without encoding it when its length settles it. */
export function longerThan(src: string, max: number): boolean {
  if (src.length > max) return true;
  if (src.length * 3 <= max) return false;
  return Buffer.byteLength(src, "utf8") > max;
}

export function sizeText(bytes: number): string {
  return bytes % 1024 === 0 ? `${bytes / 1024} KiB` : `${bytes} bytes`;
}
