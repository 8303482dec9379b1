// The report as text: totals, missed commands by route (with what the filters
// would have printed, when replayed), kept commands by reason, the unrouted
// commands, and one row per project. Sizes are characters of output, as the
// host counts them.
import type { Counts, DiscoverReport, ReplayFigures } from "./analyze.js";

export interface ReadSummary {
  files: { claude: number; codex: number };
  lines: number;
  malformed: number;
}

const pct = (n: number, of: number) => (of ? `${((100 * n) / of).toFixed(1)}%` : "-");

/** Rows in columns: the first left-aligned, the others right-aligned but those `left` names. */
function table(rows: readonly (readonly string[])[], left: readonly number[] = []): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => ("  " + r.map((c, i) => (i === 0 || left.includes(i) ? c.padEnd(widths[i]!) : c.padStart(widths[i]!))).join("  ")).trimEnd());
}

function saved(f: ReplayFigures): string {
  return `${f.rawChars} → ${f.outChars} chars, saved ${f.rawChars - f.outChars} (${pct(f.rawChars - f.outChars, f.rawChars)})`;
}

export function renderText(r: DiscoverReport, read: ReadSummary): string {
  const t = r.totals;
  const files = read.files.claude + read.files.codex;
  const out: string[] = [
    `Transcripts: ${files} (${read.files.claude} Claude Code, ${read.files.codex} Codex), ${read.lines} lines, ${read.malformed} malformed skipped${r.repeated ? `, ${r.repeated} repeated commands counted once` : ""}`,
    `Hook decisions: ${r.hookDecisions.loaded} recorded, ${r.hookDecisions.joined} joined with a transcript's command`,
    "",
    `Shell commands: ${t.commands}`,
    ...table(
      [
        ["through rtk", String(t.typed + t.hook), pct(t.typed + t.hook, t.commands), `${t.typed} typed as rtk, ${t.hook} rewritten by the hook`],
        ["missed", String(t.missed), pct(t.missed, t.commands), `a route, ran raw: ${t.missedChars} chars of output`],
        ["kept raw", String(t.kept), pct(t.kept, t.commands), "a safety rule"],
        ["no route", String(t.noRoute), pct(t.noRoute, t.commands), ""],
        ["not parsed", String(t.unread), pct(t.unread, t.commands), ""],
      ],
      [3],
    ),
    `  outputs cut by the host: ${t.truncated}`,
  ];
  if (r.missed.length) {
    out.push("", "Missed, by route:");
    const head = ["route", "commands", "output chars"];
    if (r.replay) head.push("replayed", "raw → rtk chars", "saved");
    const rows = r.missed.map((m) => {
      const row = [m.route, String(m.commands), String(m.outputChars)];
      if (m.replay)
        row.push(
          String(m.replay.replayed),
          `${m.replay.rawChars} → ${m.replay.outChars}`,
          `${m.replay.rawChars - m.replay.outChars} (${pct(m.replay.rawChars - m.replay.outChars, m.replay.rawChars)})`,
        );
      return row;
    });
    out.push(...table([head, ...rows]));
  }
  if (r.replay) {
    const s = r.replay.skipped;
    out.push(
      "",
      `Replayed through rtk's filters: ${r.replay.replayed} of ${t.missed} missed commands: ${saved(r.replay)}`,
      `  not replayed: ${s.truncated} cut by the host, ${s.noOutput} without output, ${s.compound} not one plain command, ${s.noFilter} without a built-in filter`,
    );
  }
  if (r.kept.length) out.push("", "Kept raw, by reason:", ...table(r.kept.map((k) => [k.reason, String(k.commands)])));
  if (r.noRoute.length) out.push("", "No route (what to support next):", ...table(r.noRoute.map((n) => [n.command, String(n.commands)])));
  if (r.projects.length) {
    out.push("", "By project:");
    const rows = r.projects.map((p) => projectRow(p.project, p));
    out.push(...table([["project", "commands", "through rtk", "missed", "missed chars", "kept", "no route", "not parsed", "cut"], ...rows]));
  }
  return out.join("\n") + "\n";
}

function projectRow(name: string, c: Counts): string[] {
  return [
    name || "(unknown)",
    String(c.commands),
    `${c.typed + c.hook} (${pct(c.typed + c.hook, c.commands)})`,
    String(c.missed),
    String(c.missedChars),
    String(c.kept),
    String(c.noRoute),
    String(c.unread),
    String(c.truncated),
  ];
}

export function renderJson(r: DiscoverReport, read: ReadSummary): string {
  return JSON.stringify({ transcripts: read, ...r }, null, 2) + "\n";
}
