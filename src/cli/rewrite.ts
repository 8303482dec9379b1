// `rtk rewrite "<command>"`: the subprocess contract for hosts. stdout carries the
// rewritten command without a trailing newline, or nothing; the exit code says
// how to hand it back (0 allow, 1 nothing to do, 2 deny, 3 ask). A usage error
// is 64 (sysexits' EX_USAGE), not the 2 of every other command: here 2 means
// denied, and a hook reading it would block the agent's command.
import mri from "mri";
import { resultJson, rewrite, UnknownHostError } from "../api.js";
import { hostNames } from "../hosts/index.js";
import { ON_PATH_FIX } from "../hosts/on-path.js";
import { rewriteRunnable } from "../hosts/host-shell.js";
import { recordHook } from "../accounting/record.js";
import { tryLoadConfig } from "../config/load.js";
import type { Outcome } from "../rewrite/outcome.js";
import { writeFd } from "./out.js";
import { unknownWord } from "../text/suggest.js";

export const REWRITE_USAGE_ERROR = 64;

function usage(problem: string): number {
  writeFd(2, `rtk rewrite: ${problem}\nusage: rtk rewrite [--json] [--host <host>] [--mode <mode>] "<command>"   (or - to read stdin; rtk rewrite --help for more)\n`);
  return REWRITE_USAGE_ERROR;
}

export function rewriteCli(args: string[], read: (arg: string) => string): number {
  // Options are read up to the command: a command may itself start with a dash.
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === "--" || a === "-" || !a.startsWith("-")) break;
    if (a === "--host" || a === "--mode") i++;
    else if (a !== "--json" && !a.startsWith("--host=") && !a.startsWith("--mode=")) return usage(unknownWord("option", a, ["--json", "--host", "--mode", "--help"]));
  }
  const opts = mri(args, { boolean: ["json"], string: ["host", "mode"] });
  // mri drops a lone "-" (read the command from stdin): keep it.
  const positional = opts._.length ? opts._.map(String) : args.includes("-") ? ["-"] : [];
  if (positional.length !== 1) return usage(positional.length ? `one command (quoted), not ${positional.length} words` : "no command given");
  let src: string;
  try {
    src = read(positional[0]!);
  } catch (e) {
    writeFd(2, `rtk: cannot read the command: ${(e as Error).message}\n`);
    return 1;
  }
  // Read once for the rewrite and for the accounting of the decision.
  const config = tryLoadConfig(process.env, process.cwd());
  let r;
  try {
    r = rewrite(src, { host: opts["host"] as string | undefined, mode: opts["mode"] as string | undefined, warn: (m) => writeFd(2, m + "\n"), config });
  } catch (e) {
    if (!(e instanceof UnknownHostError)) throw e;
    return usage(unknownWord("host", e.host, hostNames()));
  }
  if (!r.parse.ok && r.parse.error.limit) writeFd(2, `rtk: ${r.parse.error.message}; nothing rewritten\n`);
  if (r.command !== null && (r.exitCode === 0 || r.exitCode === 3)) {
    // A rewritten command whose `rtk` the shell cannot find would fail with 127: nothing to do instead.
    const reach = rewriteRunnable(process.env, process.cwd());
    if (!reach.ok) {
      writeFd(2, `rtk rewrite: no rewrite: ${reach.why}; fix: ${ON_PATH_FIX}\n`);
      r = { ...r, command: null, exitCode: 1 as const };
    }
  }
  const outcome: Outcome =
    r.verdict === "deny"
      ? { kind: "active-deny", reason: "" }
      : r.command !== null && (r.exitCode === 0 || r.exitCode === 3)
        ? { kind: "rewrite", command: r.command, allow: r.exitCode === 0, ask: r.exitCode === 3 }
        : { kind: "pass" };
  if (opts["json"]) {
    writeFd(1, JSON.stringify({ ...resultJson(r), permissions: r.permissionDetail }));
  } else if (r.command !== null && (r.exitCode === 0 || r.exitCode === 3)) {
    writeFd(1, r.command);
  }
  // Recorded once the answer is written.
  recordHook(process.env, {
    host: (opts["host"] as string | undefined) ?? "cli",
    command: src,
    cwd: undefined,
    outcome,
    result: r,
    event: null,
    config,
  });
  return r.exitCode;
}
