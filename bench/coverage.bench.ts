// Route coverage of the rewrite over the corpus of agent commands: how many
// simple commands get `rtk ` inserted, how many have a route but are kept raw
// (and for which safety reason), and which first words have no route at all,
// most frequent first. A reported figure: it says where the next filter pays.
// In process, through the built library, with the routes rtk activates.
import type { Segment } from "../src/lib.js";
import { loadBuiltLib } from "./harness/context.js";
import type { Bench } from "./harness/context.js";
import { agentCommandsPath, loadAgentCommands } from "./inputs/corpus.js";

const bench: Bench = async ({ ci, report }) => {
  // The CI run prints the short form: the same totals, fewer unrouted words.
  const TOP = ci ? 5 : 20;
  const lib = await loadBuiltLib();
  await report.section("route coverage of the rewrite over the agent-command corpus", ["figure", "count", "share"], (area) => {
    const commands = loadAgentCommands();
    if (!commands) return area.skip(`no corpus at ${agentCommandsPath}; nothing to measure here`);
    const registry = lib.activeRegistry();
    const segments: Segment[] = [];
    let rewritten = 0;
    let unread = 0;
    for (const c of commands) {
      const r = lib.rewriteCommand(c, { registry });
      if (!r.parse.ok) unread++;
      if (r.command !== null) rewritten++;
      segments.push(...r.segments);
    }
    const inserted = segments.filter((s) => s.decision === "rewrite").length;
    const keptRouted = segments.filter((s) => s.decision === "keep" && s.route !== null);
    const already = segments.filter((s) => s.reason === "already-rtk").length;
    const unrouted = segments.filter((s) => s.route === null && s.reason !== "already-rtk");
    const pct = (n: number, of: number) => (of ? `${((n / of) * 100).toFixed(1)} %` : "—");
    area.row(["commands in the corpus", commands.length, ""]);
    area.row(["  rewritten (at least one `rtk ` inserted)", rewritten, pct(rewritten, commands.length)]);
    area.row(["  not read (parse error or limit)", unread, pct(unread, commands.length)]);
    area.row(["simple commands", segments.length, ""]);
    area.row(["  `rtk ` inserted", inserted, pct(inserted, segments.length)]);
    area.row(["  routed but kept raw", keptRouted.length, pct(keptRouted.length, segments.length)]);
    for (const [reason, n] of countBy(keptRouted.map((s) => s.reason ?? "?"))) area.row([`    ${reason}`, n, pct(n, segments.length)]);
    area.row(["  already `rtk …`", already, pct(already, segments.length)]);
    area.row(["  no route", unrouted.length, pct(unrouted.length, segments.length)]);
    const words = countBy(unrouted.map((s) => firstWords(s, registry.byTool)));
    area.row([`top ${TOP} unrouted first words (of ${words.length})`, "", ""]);
    for (const [word, n] of words.slice(0, TOP)) area.row([`    ${word}`, n, pct(n, segments.length)]);
    area.figure("commands", commands.length);
    area.figure("simpleCommands", segments.length);
    area.figure("inserted", inserted);
    area.figure("keptRouted", Object.fromEntries(countBy(keptRouted.map((s) => s.reason ?? "?"))));
    area.figure("unroutedWords", Object.fromEntries(words));
    area.note("the registry rtk activates (routes whose filter is built); no permission rules, no config exclusions");
  });
};

/**
 * The command word after wrappers, by basename (`(dynamic)` where it expands);
 * for a tool with routes, its first operand too (`docker run`): what is missing
 * there is a subcommand.
 */
function firstWords(s: Segment, byTool: ReadonlyMap<string, unknown>): string {
  if (s.command === null) return "(dynamic)";
  const tool = s.command.split("/").pop() ?? s.command;
  if (!byTool.has(tool)) return tool;
  const sub = s.argv.slice(1).find((w) => w !== null && !w.startsWith("-"));
  return sub ? `${tool} ${sub}` : tool;
}

/** Counts, most frequent first, ties by name. */
function countBy(items: readonly string[]): [string, number][] {
  const m = new Map<string, number>();
  for (const i of items) m.set(i, (m.get(i) ?? 0) + 1);
  return [...m].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
}

export default bench;
