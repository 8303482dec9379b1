// What the never-looser property tests share (test/permissions/replacement*.property.test.ts):
// the generated commands, how a host splits them into the parts it judges, and a
// temporary HOME with a project (a git repository) for the host's rule files.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after } from "node:test";
import fc from "fast-check";

/** Generated (rules, command) pairs per host. */
export const RUNS = Number(process.env["RTK_PROPERTY_RUNS"] ?? 10_000);

export type Verdict = "allow" | "ask" | "deny";
export const RANK: Record<Verdict, number> = { allow: 0, ask: 1, deny: 2 };

/** Simple commands: read-only and writing ones, with and without a route, agent-typed `rtk`, an assignment, a wrapper. */
export const SIMPLE = [
  "git status",
  "git log -n 3",
  "git diff",
  "git diff --stat",
  "git push origin main",
  "git commit -m wip",
  "git add .",
  "ls -la",
  "ls",
  "cat f1.txt",
  "wc -l f1.txt",
  "echo hi",
  "npm test",
  "cargo test",
  "curl -s http://example.test",
  "env",
  "rm -rf build",
  "rtk git status",
  "rtk git push origin main",
  "rtk npm test",
  "FOO=1 git push",
  "timeout 5 npm test",
] as const;

/** Up to three parts joined by `&&`, `||`, `;` or `|`. */
export function compoundArb(part: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return fc
    .array(part, { minLength: 1, maxLength: 3 })
    .chain((parts) =>
      fc.array(fc.constantFrom(" && ", " || ", "; ", " | "), { minLength: parts.length - 1, maxLength: parts.length - 1 }).map((ops) => parts.map((p, i) => (i === 0 ? p : ops[i - 1] + p)).join("")),
    );
}

/** A part as written, or the same behind an `rtk` the agent typed. */
export function maybeBehindRtk(simple: readonly string[]): fc.Arbitrary<string> {
  return fc.tuple(fc.constantFrom(...simple), fc.boolean()).map(([s, rtk]) => (rtk && !s.startsWith("rtk ") ? `rtk ${s}` : s));
}

/** The commands of a list or pipeline as written, trimmed (the generated commands hold their operators nowhere else: no quotes or subshells). */
export function split(command: string): string[] {
  return command
    .split(/&&|\|\||;|\||\n/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** The parts a host judges, each without leading assignments. */
export function parts(command: string): string[] {
  return split(command)
    .map((p) => p.replace(/^([A-Za-z_][A-Za-z0-9_]*=\S*\s+)+/, ""))
    .filter(Boolean);
}

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

/** A temporary HOME holding a project (a git repository), removed when the file's tests end. */
export function tempProject(): { home: string; project: string } {
  const home = mkdtempSync(join(tmpdir(), "rtk-never-looser-"));
  made.push(home);
  const project = join(home, "app");
  mkdirSync(join(project, ".git"), { recursive: true });
  return { home, project };
}

/** Writes a rule file anew: a file truncated and rewritten is flushed to disk first by ext4 (milliseconds a write, each run). */
export function put(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true });
  rmSync(path, { force: true });
  writeFileSync(path, text);
}
