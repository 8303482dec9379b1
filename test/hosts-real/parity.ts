// Prompt parity, measured against the host itself: each command runs in a
// session without rtk and in one with rtk's hook installed, under the same rule
// set and permission mode, and must meet the same fate (ran unprompted, needed
// approval, denied). Where rtk rewrote a command that ran, the model must have
// received rtk's output, and rtk must have recorded the run.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../support/corpus.js";
import { scratch, type Scratch } from "./support/sandbox.js";
import { session, type CommandOutcome, type HostDriver, type SessionOptions, type SessionResult } from "./support/session.js";

export interface RuleSet {
  name: string;
  /** Files written into the scratch HOME (relative path → text) before the host starts. */
  files: Record<string, string>;
}

export interface ParityRow {
  host: string;
  rules: string;
  mode: string;
  commands: number;
  ranWithout: number;
  ranWith: number;
  throughRtk: number;
  asked: number;
  denied: number;
  mismatches: { command: string; without: string; with: string; rewritten: string | null }[];
  unrecorded: string[];
  hookErrors: string[];
  /**
   * Agent-typed `rtk X` the host asked about without rtk's hook and ran with it,
   * where X itself ran unprompted in the same row: the one prompt rtk removes on
   * purpose (rtk runs exactly X), counted apart from the mismatches.
   */
  allowedTyped: string[];
  /**
   * Agent-typed `rtk X` that rtk's hook refused, where the host's rules deny X itself in the same row: the host's
   * rules cannot see a command behind an `rtk` the agent typed, so rtk applies them (counted apart, as allowedTyped).
   */
  deniedTyped: string[];
}

/** Runs `commands` without and with rtk under one rule set and mode; the two sessions run side by side. */
export async function parityRow(
  driver: HostDriver,
  commands: readonly string[],
  rules: RuleSet,
  mode: string | undefined,
  extra: SessionOptions & { init?: string[] } = {},
): Promise<ParityRow & { without: CommandOutcome[]; with: CommandOutcome[] }> {
  const opts = { ...extra, mode, files: { ...extra.files, ...rules.files } };
  const [plain, hooked] = await Promise.all([session(driver, commands, { ...opts, withRtk: false }), session(driver, commands, { ...opts, withRtk: true })]);
  const mismatches: ParityRow["mismatches"] = [];
  const unrecorded: string[] = [];
  const allowedTyped: string[] = [];
  const deniedTyped: string[] = [];
  const alone = (c: string) => plain.outcomes[commands.indexOf(c)]?.fate;
  const ranAlone = (c: string) => alone(c) === "ran";
  commands.forEach((command, i) => {
    const a = plain.outcomes[i]!;
    const b = hooked.outcomes[i]!;
    if (a.fate === "asked" && b.fate === "ran" && command.startsWith("rtk ") && ranAlone(command.slice(4))) allowedTyped.push(command);
    else if (a.fate !== b.fate && b.fate === "denied" && command.startsWith("rtk ") && alone(command.slice(4)) === "denied") deniedTyped.push(command);
    else if (a.fate !== b.fate || a.fate === "error") mismatches.push({ command, without: a.fate, with: b.fate, rewritten: b.rewritten });
    if (b.fate === "ran" && b.rewritten !== null && !b.recorded) unrecorded.push(command);
  });
  const count = (o: CommandOutcome[], f: string) => o.filter((x) => x.fate === f).length;
  return {
    host: driver.name,
    rules: rules.name,
    mode: mode ?? "(none)",
    commands: commands.length,
    ranWithout: count(plain.outcomes, "ran"),
    ranWith: count(hooked.outcomes, "ran"),
    throughRtk: hooked.outcomes.filter((o) => o.fate === "ran" && o.rewritten !== null).length,
    asked: count(hooked.outcomes, "asked"),
    denied: count(hooked.outcomes, "denied"),
    mismatches,
    unrecorded,
    hookErrors: hooked.hookErrors,
    allowedTyped,
    deniedTyped,
    without: plain.outcomes,
    with: hooked.outcomes,
  };
}

export function assertParity(row: ParityRow): void {
  const lines = row.mismatches.map((m) => `  ${m.command}: without rtk ${m.without}, with rtk ${m.with}${m.rewritten ? ` (rewritten to ${m.rewritten})` : ""}`);
  assert.equal(row.mismatches.length, 0, `${row.host} ${row.rules} ${row.mode}: ${row.mismatches.length} commands met another fate with rtk:\n${lines.join("\n")}`);
  assert.deepEqual(row.unrecorded, [], `rewritten commands that ran but rtk did not record`);
  assert.deepEqual(row.hookErrors, [], `the host reported hook errors`);
}

/**
 * Where a command ran with and without rtk, it went through rtk exactly as rtk's library decides with the row's
 * files in a fresh scratch HOME: `handed` is the command the library hands the host for it (null: left as typed).
 */
export function assertHandedAsLibrary(
  row: { with: readonly CommandOutcome[]; without: readonly CommandOutcome[] },
  files: Record<string, string>,
  handed: (command: string, replica: Scratch) => string | null,
  under: string,
): void {
  const replica = scratch({ withRtk: false });
  try {
    for (const [path, text] of Object.entries(files)) replica.put(join(replica.home, path), text);
    row.with.forEach((o, i) => {
      if (o.fate !== "ran" || row.without[i]!.fate !== "ran") return;
      assert.equal(o.rewritten, handed(o.command, replica), `what ran for ${JSON.stringify(o.command)}${under}`);
    });
  } finally {
    replica.dispose();
  }
}

/** The commands of the agent-typed `rtk` check: `rtk` before a denied `git push`, the push itself, `rtk` before an allowed command. */
const TYPED = ["rtk git push origin main", "git push origin main", "rtk git status"];

/**
 * The one fate rtk changes, on purpose: the host's rules cannot see a command behind an `rtk` the agent typed, so
 * without rtk's hook `rtk git push` runs past a rule that denies `git push`, and with it the hook refuses it.
 * `opts` holds that rule. Returns the session with rtk.
 */
export async function typedRtkUnderDeny(driver: HostDriver, opts: SessionOptions): Promise<SessionResult> {
  const [plain, hooked] = await Promise.all([session(driver, TYPED, { ...opts, withRtk: false }), session(driver, TYPED, { ...opts, withRtk: true })]);
  assert.deepEqual(
    plain.outcomes.map((o) => o.fate),
    ["ran", "denied", "ran"],
    `without rtk's hook, ${driver.name} runs \`rtk git push\` past its own deny`,
  );
  assert.deepEqual(
    hooked.outcomes.map((o) => o.fate),
    ["denied", "denied", "ran"],
  );
  return hooked;
}

/** The table `docs/hosts.md` shows, one line per rule set and mode. */
export function parityTable(rows: readonly ParityRow[]): string {
  const head = "| rules | mode | commands | ran without rtk | ran with rtk | of those, through rtk | asked | denied | parity |";
  const sep = "|---|---|---|---|---|---|---|---|---|";
  const body = rows.map(
    (r) =>
      `| ${r.rules} | ${r.mode} | ${r.commands} | ${r.ranWithout} | ${r.ranWith} | ${r.throughRtk} | ${r.asked} | ${r.denied} | ${(((r.commands - r.mismatches.length) / r.commands) * 100).toFixed(1)} % |`,
  );
  return [head, sep, ...body].join("\n");
}

/** RTK_REAL_HOSTS_FULL=1: every row runs the whole corpus. */
export const FULL = process.env["RTK_REAL_HOSTS_FULL"] === "1";

/** The commands that write or reach the network: every row of every host runs them. */
export const WRITES = /git (push|commit|add)|npm|curl/;

/** A row's commands: all with RTK_REAL_HOSTS_FULL=1; otherwise, as CI runs it, every `share`th, every write and network command, and those `also` takes. */
export function ciShare(all: readonly string[], share: number, also: (command: string) => boolean = () => false): string[] {
  return all.filter((c, i) => FULL || i % share === 0 || WRITES.test(c) || also(c));
}

/** Writes the rows (without the per-command detail) beside the test results, for a reader to compare runs, and prints their table under `title`. */
export function reportRows(host: string, title: string, rows: readonly (ParityRow & { without?: unknown; with?: unknown })[]): void {
  if (!rows.length) return;
  const dir = join(repoRoot, "test", "hosts-real", "results");
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${host}.json`);
  writeFileSync(path, JSON.stringify(rows, null, 2) + "\n");
  process.stdout.write(`\n${title} (${path}):\n${parityTable(rows)}\n`);
}

/**
 * The host's own fate for each command of a row, against the table kept in
 * `test/hosts-real/expected/<host-version>.json`: what rtk knows of the host
 * (its read-only list, its modes) was measured on that version, so a host that
 * changes fails loudly. RTK_REAL_HOSTS_RECORD=1 writes the table instead.
 */
export function assertSameHost(hostVersion: string, row: string, without: readonly CommandOutcome[]): void {
  const file = join(repoRoot, "test", "hosts-real", "expected", `${hostVersion}.json`);
  const table = existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Record<string, Record<string, string>>) : {};
  const seen = Object.fromEntries(without.map((o) => [o.command, o.fate]));
  if (process.env["RTK_REAL_HOSTS_RECORD"] === "1") {
    table[row] = seen;
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, JSON.stringify(table, null, 1) + "\n");
    return;
  }
  const kept = table[row];
  assert.ok(kept, `no fates kept for ${hostVersion}, ${row}: run with RTK_REAL_HOSTS_RECORD=1 to record them`);
  const changed = Object.entries(seen).filter(([c, f]) => c in kept && kept[c] !== f);
  assert.deepEqual(
    changed.map(([c, f]) => `${c}: ${kept[c]} → ${f}`),
    [],
    `${hostVersion} ${row}: the host's own fates differ from the ones rtk was built on (a new version?)`,
  );
}
