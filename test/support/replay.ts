// Recorded tool runs played back through the built rtk. A case is a folder
// test/fixtures/tools/<tool>/<case>/ holding case.json (the argv, the exit code,
// the tool's version, whether the output was recorded from the real tool or
// written from its documented format), stdout and stderr as the tool printed them.
// Playing a case puts a stand-in for the tool first on PATH that prints those
// bytes and exits with that code, then runs `rtk <argv…>` as an agent would.
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { repoRoot } from "./corpus.js";
import { launch, type Run } from "./launch.js";
import { COMPACT_EVERY_OUTPUT } from "./sandbox.js";
import { matchRoute } from "../../src/routes/match.js";
import { activeRegistry } from "../../src/routing.js";

export const TOOL_FIXTURES = join(repoRoot, "test", "fixtures", "tools");

export interface ToolCase {
  /** `<tool>/<case>`. */
  name: string;
  dir: string;
  argv: string[];
  exit: number;
  /** What the tool printed of its own version. */
  version: string;
  /** "real": recorded by `npm run fixtures`; "documented": written from the tool's documented output. */
  recorded: "real" | "documented";
  stdout: string;
  stderr: string;
}

/** Every recorded case, or those of one tool. */
export function toolCases(tool?: string): ToolCase[] {
  if (!existsSync(TOOL_FIXTURES)) return [];
  const tools = tool ? [tool] : readdirSync(TOOL_FIXTURES).sort();
  return tools.flatMap((t) =>
    existsSync(join(TOOL_FIXTURES, t))
      ? readdirSync(join(TOOL_FIXTURES, t))
          .sort()
          .filter((c) => existsSync(join(TOOL_FIXTURES, t, c, "case.json")))
          .map((c) => readCase(join(TOOL_FIXTURES, t, c), `${t}/${c}`))
      : [],
  );
}

/** The id of the filter rtk runs the case through (null: not routed); tools such as cargo have test and build runs. */
export function filterOf(c: ToolCase): string | null {
  return matchRoute(c.argv, activeRegistry())?.route.filter ?? null;
}

/** Whether the case is a test run (a test runner's filter), as opposed to a build or a lint. */
export const isTestRun = (c: ToolCase): boolean => filterOf(c)?.startsWith("test.") ?? false;

/** Whether the case is a package manager's run (an install, a listing, an audit): cargo and go have those too. */
export const isPackageRun = (c: ToolCase): boolean => filterOf(c)?.startsWith("packages.") ?? false;

function readCase(dir: string, name: string): ToolCase {
  const meta = JSON.parse(readFileSync(join(dir, "case.json"), "utf8")) as Pick<ToolCase, "argv" | "exit" | "version" | "recorded">;
  const read = (f: string) => (existsSync(join(dir, f)) ? readFileSync(join(dir, f), "utf8") : "");
  return { name, dir, ...meta, stdout: read("stdout"), stderr: read("stderr") };
}

/** Runs `rtk <case argv…>` with the recorded tool standing in for the real one. */
export async function replay(c: ToolCase, extraArgs: readonly string[] = [], env: Record<string, string> = {}): Promise<Run> {
  const root = mkdtempSync(join(tmpdir(), "rtk-replay-"));
  try {
    const bin = join(root, "bin");
    mkdirSync(bin);
    const tool = c.argv[0]!;
    // The stand-in prints stdout, then stderr: a filter must not depend on how the two interleaved.
    writeFileSync(join(bin, tool), `#!/bin/sh\ncat '${join(c.dir, "stdout")}' 2>/dev/null\ncat '${join(c.dir, "stderr")}' >&2 2>/dev/null\nexit ${c.exit}\n`);
    chmodSync(join(bin, tool), 0o755);
    return await launch([...extraArgs, ...c.argv], {
      cwd: root,
      env: { ...standInEnv(root, bin), ...env },
    });
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

/** The environment of a replay: stand-ins first on PATH, rtk's folders inside `root`, no colour, no locale or time zone of the machine's, nothing recorded. */
export function standInEnv(root: string, bin: string): Record<string, string> {
  return {
    PATH: `${bin}:${process.env["PATH"] ?? "/usr/bin:/bin"}`,
    HOME: join(root, "home"),
    XDG_DATA_HOME: join(root, "data"),
    XDG_CONFIG_HOME: join(root, "config"),
    XDG_CACHE_HOME: join(root, "cache"),
    LC_ALL: "C",
    TZ: "UTC",
    NO_COLOR: "1",
    RTK_NO_TRACK: "1",
    ...COMPACT_EVERY_OUTPUT,
  };
}
