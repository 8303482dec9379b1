// `rtk explain`: how rtk reads a command and what it would do with it.
import kleur from "kleur";
import mri from "mri";
import { parse } from "../../grammar/parse.js";
import { rewrite } from "../api.js";
import { explain } from "../explain.js";
import { printTree } from "../ast/tree.js";
import { printCanonical } from "../printer/canonical.js";
import type { RewriteResult } from "../rewrite/rewrite.js";

export function explainCommand(args: string[], read: (arg: string) => string): number {
  const opts = mri(args, { boolean: ["tree", "json", "canonical"], string: ["host"] });
  // mri drops a lone "-" (read the command from stdin): keep it.
  const positional = opts._.length ? opts._.map(String) : args.includes("-") ? ["-"] : [];
  if (positional.length !== 1) {
    process.stderr.write('usage: rtk explain [--tree | --json | --canonical] "<command>"\n');
    return 2;
  }
  const src = read(positional[0]!);

  if (opts["tree"] || opts["canonical"]) {
    const parsed = parse(src);
    if (!parsed.ok) {
      const e = parsed.error;
      process.stderr.write(`rtk: parse error at line ${e.line}, column ${e.column}: ${e.message}\n`);
      return 1;
    }
    process.stdout.write((opts["tree"] ? printTree(parsed.script) : printCanonical(parsed.script)) + "\n");
    return 0;
  }

  const host = opts["host"] as string | undefined;
  if (opts["json"]) {
    const data = explain(src, { host });
    process.stdout.write(JSON.stringify(data, null, 2) + "\n");
    return data.parse.ok ? 0 : 1;
  }
  const r = rewrite(src, { host });
  kleur.enabled = Boolean(process.stdout.isTTY) && !process.env["NO_COLOR"];
  process.stdout.write(explainText(r));
  return r.parse.ok ? 0 : 1;
}

const VERDICT_TEXT: Record<string, string> = {
  allow: "allow (every part is allowed by the host's rules)",
  ask: "ask (a rule asks, or the command cannot be attested)",
  deny: "deny (a deny rule matched)",
  default: "default (no rule matched; the host asks)",
};

function explainText(r: RewriteResult): string {
  const c = kleur;
  const lines: string[] = [`command: ${r.input}`];
  if (!r.parse.ok) {
    const e = r.parse.error;
    lines.push(c.red(`parse error at line ${e.line}, column ${e.column}: ${e.message}`), "nothing is rewritten", "exit: 1");
    return lines.join("\n") + "\n";
  }
  const rows = r.segments.map((s) => [
    `${s.node.span.start}-${s.node.span.end}`,
    s.decision,
    s.reason ?? "-",
    s.route?.id ?? "-",
    r.input.slice(s.node.span.start, s.node.span.end).replace(/\n/g, "⏎"),
  ]);
  const head = ["span", "decision", "reason", "route", "command"];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i]!.length)));
  const fmt = (row: string[]) => "  " + row.map((cell, i) => (i < row.length - 1 ? cell.padEnd(widths[i]!) : cell)).join("  ");
  lines.push(c.bold(fmt(head)));
  for (const row of rows) lines.push(row[1] === "rewrite" ? c.green(fmt(row)) : fmt(row));
  if (!rows.length) lines.push("  (no commands)");
  if (r.unattestable) lines.push(`not attestable: ${r.unattestable.why} at offset ${r.unattestable.at}`);
  lines.push(`verdict: ${VERDICT_TEXT[r.verdict]}`);
  lines.push(`result:  ${r.command ?? "(unchanged)"}`);
  lines.push(`exit:    ${r.exitCode}`);
  return lines.join("\n") + "\n";
}
