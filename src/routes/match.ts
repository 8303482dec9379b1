// Matching an argv against the registry. Launchers (npx, pnpm exec, python -m,
// uv run, …) are part of the route: the tool they start is what is matched.
// Paths are matched by basename. Words that are not literal are null.
import type { Registry } from "./registry.js";
import type { RouteRow, SubWord, ToolSpec } from "./types.js";

export type Argv = readonly (string | null)[];

export interface RouteMatch {
  route: RouteRow;
  /** The tool as matched (`vitest` for `npx vitest run`). */
  tool: string;
  /** Index in argv of the word naming the tool. */
  toolIndex: number;
  /** Index in argv of the subcommand: past the tool's own options (its ToolSpec). */
  subIndex: number;
  /** An argument makes the output something the filter must not touch. */
  indirect: boolean;
}

interface Launcher {
  /** Words that must follow the launcher word (`exec` in `pnpm exec`); none for npx. */
  sub?: readonly string[];
  valueOptions?: readonly string[];
  flagOptions?: readonly string[];
  /** Also runs a tool given directly (`yarn vitest`), when no row of the launcher itself matches. */
  implicit?: boolean;
}

const NODE_RUNNER: Launcher = {
  valueOptions: ["-p", "--package"],
  flagOptions: ["-y", "--yes", "-q", "--quiet", "--no-install", "--ignore-existing", "--no", "-s", "--silent"],
};

const LAUNCHERS: Readonly<Record<string, readonly Launcher[]>> = {
  npx: [NODE_RUNNER],
  pnpx: [NODE_RUNNER],
  bunx: [NODE_RUNNER],
  uvx: [{ valueOptions: ["--from", "--with", "--python", "-p"], flagOptions: ["-q", "--quiet", "--isolated"] }],
  npm: [
    { sub: ["exec"], ...NODE_RUNNER },
    { sub: ["x"], ...NODE_RUNNER },
  ],
  pnpm: [{ sub: ["exec"] }, { sub: ["dlx"] }, { implicit: true }],
  yarn: [{ sub: ["exec"] }, { sub: ["dlx"] }, { implicit: true }],
  bun: [{ sub: ["x"] }],
  uv: [
    {
      sub: ["run"],
      valueOptions: ["--with", "--python", "-p", "--project", "--directory", "--env-file", "--extra", "--group", "--package"],
      flagOptions: ["--frozen", "--locked", "--no-sync", "--isolated", "-q", "--quiet", "--all-extras", "--no-dev"],
    },
  ],
  poetry: [{ sub: ["run"] }],
  pipx: [{ sub: ["run"], valueOptions: ["--spec", "--python"] }],
  python: [{ sub: ["-m"] }],
  python3: [{ sub: ["-m"] }],
  bundle: [{ sub: ["exec"] }],
};

/** Subcommands of launchers that also run scripts or bins, which are never a tool name. */
const PACKAGE_MANAGER_COMMANDS = new Set([
  "install",
  "i",
  "ci",
  "add",
  "remove",
  "rm",
  "uninstall",
  "update",
  "up",
  "upgrade",
  "run",
  "run-script",
  "test",
  "t",
  "exec",
  "dlx",
  "x",
  "init",
  "create",
  "publish",
  "pack",
  "link",
  "unlink",
  "list",
  "ls",
  "why",
  "outdated",
  "audit",
  "config",
  "cache",
  "info",
  "view",
  "login",
  "logout",
  "help",
  "version",
  "set",
  "workspace",
  "workspaces",
  "store",
  "prune",
]);

/** The tool name of a command word: the basename, without a `@version` suffix, wrapper scripts mapped. */
export function toolName(word: string): string {
  let name = word.includes("/") ? word.slice(word.lastIndexOf("/") + 1) : word;
  const at = name.lastIndexOf("@");
  if (at > 0) name = name.slice(0, at);
  if (name === "gradlew") return "gradle";
  if (name === "mvnw") return "mvn";
  return name;
}

export function matchRoute(argv: Argv, registry: Registry): RouteMatch | null {
  const first = argv[0];
  if (first === null || first === undefined) return null;
  const name = toolName(first);
  const direct = matchTool(name, argv, 0, registry);
  if (direct) return direct;
  for (const l of LAUNCHERS[name] ?? []) {
    const at = launchedTool(l, argv);
    if (at === null) continue;
    const m = matchTool(toolName(argv[at]!), argv, at, registry);
    if (m) return m;
  }
  return null;
}

/** Where the tool started by a launcher stands in argv, or null. */
function launchedTool(l: Launcher, argv: Argv): number | null {
  let i = 1;
  for (const w of l.sub ?? []) {
    if (argv[i] !== w) return null;
    i++;
  }
  i = skipOptions(argv, i, l);
  if (argv[i] === "--") i++;
  const w = argv[i];
  if (w === null || w === undefined || w.startsWith("-")) return null;
  if (l.implicit && PACKAGE_MANAGER_COMMANDS.has(w)) return null;
  return i;
}

/** Where the tool's subcommand stands: past the options `spec` names, from `from` on. Permission matching uses the same tables. */
export function skipOptions(argv: Argv, from: number, spec: ToolSpec): number {
  let i = from;
  for (;;) {
    const w = argv[i];
    if (w === null || w === undefined || !w.startsWith("-") || w === "-" || w === "--") return i;
    const eq = w.indexOf("=");
    const bare = eq > 0 ? w.slice(0, eq) : w;
    if (spec.valueOptions?.includes(bare)) i += eq > 0 ? 1 : 2;
    else if (eq > 0 && spec.joinedValueOptions?.includes(bare)) i++;
    else if (spec.flagOptions?.includes(w)) i++;
    else return i;
  }
}

function matchTool(tool: string, argv: Argv, toolIndex: number, registry: Registry): RouteMatch | null {
  const rows = registry.byTool.get(tool);
  if (!rows) return null;
  const spec = registry.tools[tool] ?? {};
  const subAt = skipOptions(argv, toolIndex + 1, spec);
  for (const route of rows) {
    if (route.sub && !subMatches(route.sub, argv, subAt, toolIndex, route.subBeforeOperands ? spec : null)) continue;
    const indirect = route.indirectIf ? argv.slice(toolIndex + 1).some((w) => w !== null && route.indirectIf!.includes(w)) : false;
    return { route, tool, toolIndex, subIndex: subAt, indirect };
  }
  return null;
}

const wordMatches = (want: SubWord, got: string | null | undefined) => got !== null && got !== undefined && (typeof want === "string" ? want === got : want.includes(got));

function subMatches(sub: readonly SubWord[], argv: Argv, at: number, toolIndex: number, operandsEnd: ToolSpec | null): boolean {
  const first = sub[0]!;
  // An option-like subcommand (`prettier --check`) may stand anywhere among the arguments, or only among the options before the first operand.
  if ((typeof first === "string" ? first : first[0]!).startsWith("-")) {
    if (!operandsEnd) return argv.slice(toolIndex + 1).some((w) => wordMatches(first, w));
    for (let i = toolIndex + 1; i < argv.length; i++) {
      const w = argv[i];
      if (w === null || w === undefined || w === "--" || !w.startsWith("-")) return false;
      if (wordMatches(first, w)) return true;
      if (!w.includes("=") && operandsEnd.valueOptions?.includes(w)) i++;
    }
    return false;
  }
  return sub.every((want, k) => wordMatches(want, argv[at + k]));
}
