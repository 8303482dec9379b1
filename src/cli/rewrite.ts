// `rtk rewrite "<command>"`: the subprocess contract for hosts. stdout carries the
// rewritten command without a trailing newline, or nothing; the exit code says
// how to hand it back (0 allow, 1 nothing to do, 2 deny, 3 ask).
import mri from "mri";
import { resultJson, rewrite, UnknownHostError } from "../api.js";
import { ON_PATH_FIX, rewriteRunnable } from "../hosts/on-path.js";
import { writeFd } from "./out.js";

export function rewriteCli(args: string[], read: (arg: string) => string): number {
  const opts = mri(args, { boolean: ["json"], string: ["host"] });
  // mri drops a lone "-" (read the command from stdin): keep it.
  const positional = opts._.length ? opts._.map(String) : args.includes("-") ? ["-"] : [];
  if (positional.length !== 1) {
    writeFd(2, 'usage: rtk rewrite [--json] [--host <name>] "<command>"   (or - to read stdin)\n');
    return 1;
  }
  let src: string;
  try {
    src = read(positional[0]!);
  } catch (e) {
    writeFd(2, `rtk: cannot read the command: ${(e as Error).message}\n`);
    return 1;
  }
  let r;
  try {
    r = rewrite(src, { host: opts["host"] as string | undefined, warn: (m) => writeFd(2, m + "\n") });
  } catch (e) {
    if (!(e instanceof UnknownHostError)) throw e;
    writeFd(2, `rtk: ${e.message}\n`);
    return 1;
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
  if (opts["json"]) {
    writeFd(1, JSON.stringify({ ...resultJson(r), permissions: r.permissionDetail }));
  } else if (r.command !== null && (r.exitCode === 0 || r.exitCode === 3)) {
    writeFd(1, r.command);
  }
  return r.exitCode;
}
