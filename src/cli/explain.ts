// `rtk explain`: how rtk reads a command and what it would do with it.
import kleur from "kleur";
import { parse } from "../../grammar/parse.js";
import { rewrite, UnknownHostError } from "../api.js";
import { hostNames } from "../hosts/index.js";
import type { RuleFamily, RuleFile } from "../permissions/sources.js";
import { REASON_TEXT } from "../rewrite/reasons.js";
import { HELD_TEXT, type HeldReason } from "../permissions/replacement.js";
import { parseOptions } from "./args.js";
import { unknownWord, usageError } from "./help.js";
import { explain } from "../explain.js";
import { printTree } from "../ast/tree.js";
import { printCanonical } from "../printer/canonical.js";
import type { RewriteResult } from "../rewrite/rewrite.js";

export function explainCommand(args: string[], read: (arg: string) => string): number {
  const opts = parseOptions("explain", args, { boolean: ["tree", "json", "canonical"], string: ["host", "mode"] });
  if (typeof opts === "number") return opts;
  // mri drops a lone "-" (read the command from stdin): keep it.
  const positional = opts._.length ? opts._.map(String) : args.includes("-") ? ["-"] : [];
  if (positional.length !== 1) return usageError("explain", positional.length ? `one command (quoted), not ${positional.length} words` : "no command given");
  const host = opts["host"] as string | undefined;
  if (host !== undefined && !hostNames().includes(host)) return usageError("explain", unknownWord("host", host, hostNames()));
  const src = read(positional[0]!);
  const mode = opts["mode"] as string | undefined;

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

  if (opts["json"]) {
    const data = explain(src, { host, mode });
    process.stdout.write(JSON.stringify(data, null, 2) + "\n");
    return data.parse.ok ? 0 : 1;
  }
  let r: RewriteResult;
  try {
    r = rewrite(src, { host, mode });
  } catch (e) {
    if (e instanceof UnknownHostError) return usageError("explain", unknownWord("host", e.host, hostNames()));
    throw e;
  }
  kleur.enabled = Boolean(process.stdout.isTTY) && !process.env["NO_COLOR"];
  process.stdout.write(explainText(r));
  return r.parse.ok ? 0 : 1;
}

const VERDICT_TEXT: Record<string, string> = {
  allow: "allow (every part is allowed by the host's rules, or is one the host runs unprompted by itself)",
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
  const reasons = [...new Set(r.segments.map((s) => s.reason).filter((x) => x !== null))];
  if (reasons.length) {
    const width = Math.max(...reasons.map((x) => x.length));
    lines.push("reasons:", ...reasons.map((x) => `  ${x.padEnd(width)}  ${REASON_TEXT[x]}`));
  }
  if (r.unattestable) lines.push(`not attestable: ${r.unattestable.why} at offset ${r.unattestable.at}`);
  lines.push(`rules:   ${rulesText(r.permissionDetail as { rules?: RuleFamily; files?: RuleFile[] } | null)}`);
  lines.push(`verdict: ${VERDICT_TEXT[r.verdict]}`);
  if (r.allowedThroughRtk) {
    const through = (r.permissionDetail as { parts?: { through: string | null }[] } | null)?.parts?.flatMap((p) => (p.through ? [p.through] : [])) ?? [];
    lines.push(...through.map((t) => `through: ${t}`), "         the hook answers allow for the command as typed");
  }
  if (r.held) {
    const text = HELD_TEXT[r.held.reason as HeldReason] ?? r.held.reason;
    lines.push(`held:    ${r.held.reason}${r.held.rule ? ` (\`${r.held.rule}\`)` : ""}: ${text}`, `         the rewrite would have been: ${r.held.command}`);
  }
  lines.push(`result:  ${r.command ?? "(unchanged)"}`);
  lines.push(`exit:    ${r.exitCode}`);
  return lines.join("\n") + "\n";
}

const RULES_TITLE: Readonly<Record<RuleFamily, string>> = {
  claude: "Claude Code settings",
  cursor: "Cursor CLI permissions",
  gemini: "Gemini CLI settings and policy files",
  factory: "Factory settings",
  copilot: "Claude Code settings and Copilot CLI's --deny-tool/--allow-tool",
  opencode: "OpenCode permissions",
  qwen: "Qwen Code settings and qwen's --allowed-tools/--exclude-tools",
  none: "none (this host keeps no command rules rtk reads: every part is default)",
};

/** Whose permission rules judged the command, and from which files. */
function rulesText(detail: { rules?: RuleFamily; files?: RuleFile[] } | null): string {
  if (!detail?.rules) return "not read (nothing to judge)";
  if (detail.rules === "none") return RULES_TITLE["none"]!;
  const files = detail.files ?? [];
  const title = RULES_TITLE[detail.rules] ?? `${detail.rules} rules`;
  if (!files.length) return `${title} (no file found: every part is default)`;
  const shown = files.map((f) => (f.status === "invalid" ? `${f.path} (unreadable, skipped)` : f.path));
  return `${title} (${files.length} file${files.length === 1 ? "" : "s"}: ${shown.join(", ")})`;
}
