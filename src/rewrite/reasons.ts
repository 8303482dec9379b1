// What each reason id means, one sentence each: the legend `rtk explain` prints
// and the table the README shows (a test keeps the two the same).
import type { Reason } from "./mark.js";

export const REASON_TEXT: Readonly<Record<Reason, string>> = {
  "parse-error": "The input does not parse as a shell command, so nothing in it is rewritten.",
  disabled: "RTK_DISABLED=1 is set in rtk's environment: the rewrite is off.",
  "function-body": "It is inside a function body, whose output goes wherever each call sends it.",
  "wrapper-option": "A wrapper before it (timeout, env, nice, …) has an option rtk does not know, so where the command starts is not certain.",
  "dynamic-command": "Its command word expands (a variable, substitution or glob), so what runs is not known.",
  "already-rtk": "It already runs through rtk.",
  privilege: "It runs as another user (sudo, doas, su, pkexec, run0); rtk never runs there.",
  "disabled-prefix": "An RTK_DISABLED assignment before it turns the rewrite off for it.",
  "path-changed": "Its PATH is changed or cleared, so the rewritten command might not find rtk.",
  shadowed: "The input defines a function or alias of the same name, which is what runs.",
  indirect: "It runs another command from a string or list (eval, xargs, sh -c, nohup, watch, …) or its arguments make output a filter must not touch.",
  "no-route": "rtk has no compact filter for this tool.",
  excluded: "The config's hooks.exclude_commands names it.",
  "stdout-to-file": "Its output goes to a file or another descriptor, not to the agent.",
  "stdout-captured": "Its output is captured by a substitution ($(…), backquotes, <(…)), which must get the tool's own bytes.",
  "pipe-consumer": "It reads a pipe, whose output is the earlier command's to shape.",
  "pipe-producer": "Its output feeds a pipe, which gets the tool's own output unless the route's compact form is a summary and only head, tail, cat, less or more reads it.",
  background: "It runs in the background (&), where its output is not the agent's to read.",
  unattestable:
    "The input has a substitution, reads or writes a real file, or holds text git or bash runs unseen (a git setting or variable naming a program, a find action, a trap body, arithmetic on a variable), so the host's rules cannot be attested for every part.",
};

/** The README's table of reasons, as rtk explain's legend gives them. */
export function reasonTable(): string {
  return ["| reason | meaning |", "|---|---|", ...Object.entries(REASON_TEXT).map(([id, text]) => `| \`${id}\` | ${text} |`)].join("\n") + "\n";
}
