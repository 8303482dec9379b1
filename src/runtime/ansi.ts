// ANSI escape sequences (CSI, OSC and the two-character forms) removed.
const ANSI = /\x1b\[[0-9:;<=>?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]|\x9b[0-9:;<=>?]*[ -/]*[@-~]/g;

export function stripAnsi(s: string): string {
  return s.includes("\x1b") || s.includes("\x9b") ? s.replace(ANSI, "") : s;
}
