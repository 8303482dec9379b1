// Secret-looking values in a recorded command line are masked before anything
// is written (spec/tracking.md): `--token=…` and `--token …`, `Authorization: …`
// headers, `NAME=value` for a secret-looking NAME, and values that are
// credentials by their shape (the same tables as the env filter's).
import { isSecretName, maskValue } from "../filters/files/env.js";

const MASK = "****";
/** `NAME=value` (an assignment, or an option `--name=value`), the value up to a blank or a quote. */
const ASSIGN = /(^|[\s'"])(--?)?([A-Za-z_][A-Za-z0-9_.-]*)=('[^']*'|"[^"]*"|[^\s'"]*)/g;
/** `--token value`: the next word after an option with a secret-looking name. */
const OPTION_VALUE = /(^|[\s'"])(--?[A-Za-z][A-Za-z0-9_-]*)(\s+)('[^']*'|"[^"]*"|[^\s'"-][^\s'"]*)/g;
const HEADER = /\b(Authorization|Proxy-Authorization|Cookie|X-Api-Key|Private-Token)(\s*:\s*)([^'"\n]*)/gi;
/** A `user:password@` part of a URL, or a `-u user:password` pair. */
const USER_PASS = /(-u\s+|--user(?:=|\s+))('?)([^\s:'"]+):([^\s'"@]+)/g;

/** Longest command kept in a record: a line stays one small write, and masking a megabyte of command is no hook's business. */
export const MAX_COMMAND = 4096;

export function maskCommand(command: string): string {
  if (command.length > MAX_COMMAND) command = command.slice(0, MAX_COMMAND) + "…";
  // Each pattern below needs a character of its own (an `=`, a `:`, a dash); a
  // command without it skips the pattern. The hook path records every command
  // an agent issues, and a pattern's first use compiles it.
  let out = command;
  const has = (c: string) => out.includes(c);
  if (has(":")) out = out.replace(HEADER, (_, name: string, sep: string) => `${name}${sep}${MASK}`);
  if (has("="))
    out = out.replace(ASSIGN, (whole, lead: string, dash: string | undefined, name: string, value: string) => (value && isSecretName(name) ? `${lead}${dash ?? ""}${name}=${MASK}` : whole));
  if (has("-")) out = out.replace(OPTION_VALUE, (whole, lead: string, opt: string, sp: string) => (isSecretName(opt.replace(/^-+/, "")) ? `${lead}${opt}${sp}${MASK}` : whole));
  if (has(":")) out = out.replace(USER_PASS, (_, flag: string, q: string, user: string) => `${flag}${q}${user}:${MASK}`);
  return out
    .split(/(\s+)/)
    .map((w) => (w === "" || plainWord(w) || /\s/.test(w) || w.includes(MASK) ? w : maskValue(w, false)))
    .join("");
}

/**
 * A word no credential shape can match: shorter than the shortest of them (a
 * Slack token, 15 characters) and without the `=`, `:` or `@` of a field or a URL.
 */
function plainWord(w: string): boolean {
  return w.length < 15 && !w.includes("=") && !w.includes(":") && !w.includes("@");
}
