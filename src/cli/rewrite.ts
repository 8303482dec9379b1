// `rtk rewrite "<command>"`: the subprocess contract for hosts. stdout carries the
// rewritten command without a trailing newline, or nothing; the exit code says
// how to hand it back (0 allow, 1 nothing to do, 2 deny, 3 ask).
import mri from "mri";
import { resultJson, rewrite, UnknownHostError } from "../api.js";

export function rewriteCli(args: string[], read: (arg: string) => string): number {
  const opts = mri(args, { boolean: ["json"], string: ["host"] });
  // mri drops a lone "-" (read the command from stdin): keep it.
  const positional = opts._.length ? opts._.map(String) : args.includes("-") ? ["-"] : [];
  if (positional.length !== 1) {
    process.stderr.write('usage: rtk rewrite [--json] [--host <name>] "<command>"   (or - to read stdin)\n');
    return 1;
  }
  let src: string;
  try {
    src = read(positional[0]!);
  } catch (e) {
    process.stderr.write(`rtk: cannot read the command: ${(e as Error).message}\n`);
    return 1;
  }
  let r;
  try {
    r = rewrite(src, { host: opts["host"] as string | undefined });
  } catch (e) {
    if (!(e instanceof UnknownHostError)) throw e;
    process.stderr.write(`rtk: ${e.message}\n`);
    return 1;
  }
  if (opts["json"]) {
    process.stdout.write(JSON.stringify({ ...resultJson(r), permissions: r.permissionDetail }));
  } else if (r.command !== null && (r.exitCode === 0 || r.exitCode === 3)) {
    process.stdout.write(r.command);
  }
  return r.exitCode;
}
