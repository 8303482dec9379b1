// The warm-up of the runtime's startup snapshot, run before the heap is saved:
// one filtered run of a child that prints nothing (execa's spawn and the run's
// own paths) and sample output through the common filters. The heap keeps the
// code compiled, which a start would otherwise compile on first use. Nothing
// is printed, nothing is written to disk, and nothing stays cached.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FILTERS } from "../filters/catalog.js";
import { matchRoute } from "../routes/match.js";
import { activeRegistry } from "../routing.js";
import { runFiltered } from "../runtime/run.js";

const SAMPLES: [argv: string[], lines: string[]][] = [
  [
    ["git", "status"],
    [
      "On branch main",
      "Your branch is up to date with 'origin/main'.",
      "",
      "Changes not staged for commit:",
      '  (use "git add <file>..." to update what will be committed)',
      "\tmodified:   src/a.ts",
      "",
      "Untracked files:",
      "\tb.txt",
    ],
  ],
  [
    ["git", "log"],
    ["commit 0123456789abcdef0123456789abcdef01234567", "Author: Ann Lee <ann@example.com>", "Date:   Mon Mar 11 10:00:00 2024 +0000", "", "    Fix the parser", "", "    Closes #12"],
  ],
  [
    ["git", "diff"],
    ["diff --git a/src/a.ts b/src/a.ts", "index 1111111..2222222 100644", "--- a/src/a.ts", "+++ b/src/a.ts", "@@ -1,3 +1,3 @@", " one", "-two", "+deux", " three"],
  ],
  [
    ["grep", "-rn", "x", "."],
    ["src/a.ts:1:const x = 1;", "src/b.ts:2:  return x;"],
  ],
  [
    ["find", "."],
    [".", "./src", "./src/a.ts", "./src/b.ts"],
  ],
  [
    ["ls", "-la"],
    ["total 8", "drwxr-xr-x 2 ann ann 4096 Mar 15 10:30 .", "-rw-r--r-- 1 ann ann   12 Mar 15 10:30 a.ts"],
  ],
];

export async function warmUpRun(): Promise<void> {
  const recall = { id: () => "0000000" };
  const emit = { out() {}, err() {} };
  for (const [argv, lines] of SAMPLES) {
    const match = matchRoute(argv, activeRegistry());
    const filter = match && FILTERS.get(match.route.filter);
    if (!match || !filter) continue;
    const input = { argv, toolIndex: match.toolIndex, subIndex: match.subIndex, route: match.route };
    filter.prepare?.(input);
    const run = filter.start(input, { recall, emit });
    for (const l of lines) run.line("out", l);
    run.end(0);
  }
  const status = matchRoute(["git", "status"], activeRegistry());
  const filter = status && FILTERS.get(status.route.filter);
  if (!status || !filter) return;
  const home = mkdtempSync(join(tmpdir(), "rtk-warm-"));
  try {
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, "config"), XDG_DATA_HOME: join(home, "data"), PATH: process.env["PATH"] ?? "" };
    await runFiltered(filter, { argv: [process.execPath, "-e", ""], toolIndex: 0, subIndex: 1, route: status.route }, { env, raw: false });
  } finally {
    rmSync(home, { recursive: true, force: true });
  }
}
