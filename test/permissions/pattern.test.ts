// The pattern language of Claude Code `Bash(…)` rules (spec/permissions.md,
// "Pattern language"), one test per row. Expectations come from the spec.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { matchesPattern } from "../../src/permissions/pattern.js";

type Row = readonly [pattern: string, text: string, matches: boolean];

const ROWS: readonly Row[] = [
  // ── `*` and `*:*` match everything ──────────────────────────────────────
  ["*", "git push --force", true],
  ["*", "rm -rf /", true],
  ["*", "", true],
  ["*", "a && b | c", true],
  ["*:*", "git status", true],
  ["*:*", "", true],
  ["*:*", "anything\twith\ttabs", true],

  // ── word prefixes: `:*` ─────────────────────────────────────────────────
  ["git push:*", "git push", true],
  ["git push:*", "git push --force", true],
  ["git push:*", "git push origin main", true],
  ["git push:*", "git pushx", false],
  ["git push:*", "git push-all", false],
  ["git push:*", "git push:x", false],
  ["git push:*", "git", false],
  ["git push:*", "git status", false],
  ["git push:*", "xgit push", false],
  ["git push:*", "git  push", false],
  ["sudo:*", "sudo", true],
  ["sudo:*", "sudo rm -rf /", true],
  ["sudo:*", "sudoedit /etc/hosts", false],
  ["npm run test:*", "npm run test -- --watch", true],
  ["npm run test:*", "npm run test:watch", false],
  ["git:*", "git", true],
  ["git:*", "gitk", false],

  // ── word prefixes: ` *` and a bare trailing `*` ─────────────────────────
  ["git push *", "git push", true],
  ["git push *", "git push origin", true],
  ["git push *", "git pushx", false],
  ["git push*", "git push", true],
  ["git push*", "git push --force", true],
  ["git push*", "git pushx", false],
  ["git*", "git status", true],
  ["git*", "gitk", false],
  ["sudo *", "sudoedit x", false],

  // ── globs: first piece anchors at the start, last at the end ────────────
  ["* --force", "git push --force", true],
  ["* --force", "git push --forceful", false],
  ["* --force", "git push --force origin", false],
  ["* --force", "--force", false],
  ["* --force", "x --force", true],
  ["git * main", "git push origin main", true],
  ["git * main", "git push origin main2", false],
  ["git * main", "xgit push main", false],
  ["git * --force", "git --force", false],
  ["git * --force", "git push x--force", false],
  ["*status", "git status", true],
  ["*status", "status", true],
  ["*status", "git status -s", false],
  ["* status", "status", false],
  ["npm run * --watch", "npm run --watch", false],
  ["npm run * --watch", "npm run test --watch", true],
  ["git*push", "git push", true],
  ["git*push", "gitpush", true],
  ["git*push", "git push --force", false],
  ["a*a", "a", false],
  ["a*a", "aa", true],

  // ── a middle piece ending in a blank may also match at the very end ─────
  ["git -C * diff:*", "git -C /p diff", true],
  ["git -C * diff:*", "git -C /p diff --stat", true],
  ["git -C * diff:*", "git -C /p diffx", false],
  ["git -C * diff:*", "git -C /p log", false],
  ["git -C * diff:*", "git diff", false],
  ["git -C * diff *", "git -C /p diff", true],
  ["git * origin *", "git push origin", true],
  ["git * origin *", "git push origin main", true],
  ["git * origin *", "git push originx", false],
  ["git * origin *", "git origin main", false],
  ["* --force *", "git push --force", true],
  ["* --force *", "git push --force origin", true],
  ["* --force *", "git push --force-with-lease", false],

  // ── several `*` ─────────────────────────────────────────────────────────
  ["*git*push*", "sudo git push x", true],
  ["*git*push*", "push git", false],
  ["*push*", "git pushx", true],
  ["*x*x*", "x", false],
  ["*x*x*", "axbxc", true],
  ["a*b*c", "abc", true],
  ["a*b*c", "acb", false],
  ["* && *", "git status && git push", true],
  ["* && *", "git status", false],
  ["git * -m *", "git commit -m msg", true],
  ["git * -m *", "git commit -am msg", false],
  // `**` is a glob over any characters, like `*`: the middle piece " diff " may match at the end.
  ["git * diff **", "git -C /p diff", true],

  // ── exact patterns: equal, or followed by a blank ───────────────────────
  ["git status", "git status", true],
  ["git status", "git status -s", true],
  ["git status", "git statuses", false],
  ["git status", "git status2", false],
  ["git status", "xgit status", false],
  ["git status", "git  status", false],
  ["git status", "git", false],
  ["git push --force", "git push --force origin", true],
  ["git push --force", "git push --force-with-lease", false],
  ["git push --force", "git push", false],

  // ── case sensitivity ────────────────────────────────────────────────────
  ["git status", "Git status", false],
  ["Git status", "git status", false],
  ["git push:*", "GIT PUSH", false],
  ["git push:*", "git PUSH", false],
  ["* --force", "git push --FORCE", false],
  ["*", "GIT PUSH", true],

  // ── tab and newline are word boundaries ─────────────────────────────────
  ["git push:*", "git push\t--force", true],
  ["git push:*", "git push\n--force", true],
  ["git status", "git status\t-s", true],
  ["git status", "git status\n", true],
  ["git push *", "git push\torigin", true],
  ["sudo:*", "sudo\trm", true],
  ["git status", "git status\r", false],

  // ── empty text ──────────────────────────────────────────────────────────
  ["git:*", "", false],
  ["git status", "", false],
  ["* --force", "", false],
  ["git *", "", false],
  ["a*b", "", false],
];

describe("matchesPattern: the spec's pattern table", () => {
  for (const [pattern, text, expected] of ROWS) {
    test(`${JSON.stringify(pattern)} ${expected ? "matches" : "does not match"} ${JSON.stringify(text)}`, () => {
      assert.equal(matchesPattern(pattern, text), expected);
    });
  }
  test("the table has at least 60 rows", () => {
    assert.ok(ROWS.length >= 60, `${ROWS.length} rows`);
  });
});
