// `rtk explain`: how rtk reads a command.
import mri from "mri";
import { parse } from "../../grammar/parse.js";
import { printTree } from "../ast/tree.js";
import { printCanonical } from "../printer/canonical.js";

export function explainCommand(args: string[], read: (arg: string) => string): number {
  const opts = mri(args, { boolean: ["tree", "json", "canonical"] });
  const positional = opts._.map(String);
  if (positional.length !== 1) {
    process.stderr.write('usage: rtk explain [--tree | --json | --canonical] "<command>"\n');
    return 2;
  }
  const src = read(positional[0]!);
  const result = parse(src);

  if (opts["json"]) {
    const parseInfo = result.ok ? { ok: true } : { ok: false, error: result.error };
    process.stdout.write(JSON.stringify({ command: src, parse: parseInfo }, null, 2) + "\n");
    return result.ok ? 0 : 1;
  }
  if (!result.ok) {
    const e = result.error;
    process.stderr.write(`rtk: parse error at line ${e.line}, column ${e.column}: ${e.message}\n`);
    return 1;
  }
  if (opts["canonical"]) {
    process.stdout.write(printCanonical(result.script) + "\n");
    return 0;
  }
  if (opts["tree"]) {
    process.stdout.write(printTree(result.script) + "\n");
    return 0;
  }
  process.stdout.write(`parse: ok\n${printTree(result.script)}\n`);
  return 0;
}
