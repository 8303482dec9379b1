// Fixtures for the git filters: a real world of repositories built with git in a
// temporary folder (a bare `origin.git` with a hook that talks back, a `work`
// clone with history, branches, a merge, renames, a binary file and tags, and an
// `other` clone that has pushed what `work` has not seen yet), the invocations
// run on copies of it, and the facts of each raw output — extracted here from
// git's own formats, independently of the filters — checked against the
// compact output. Shared with the benchmarks.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { chmodSync, cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launchSync } from "../../support/launch.js";
import { COMPACT_EVERY_OUTPUT } from "../../support/sandbox.js";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export { RTK } from "../../support/launch.js";

// ---------------------------------------------------------------- environment

const NAMES = {
  ann: ["Ann Lee", "ann@example.com"],
  bo: ["Bo Chen", "bo@example.com"],
  cy: ["Cy Diaz", "cy@example.com"],
} as const;

type Who = keyof typeof NAMES;

/** The one date of everything a fixture itself creates (commits, merges, stashes). */
export const FIXED_DATE = "2024-05-20T09:30:00+0200";

/** The explicit environment of every run: temp HOME and data, no user or system git config, C locale, fixed identities and dates. */
export function gitEnv(root: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: join(root, "home"),
    XDG_DATA_HOME: join(root, "data"),
    XDG_CONFIG_HOME: join(root, "config"),
    GIT_CONFIG_GLOBAL: "/dev/null",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: NAMES.ann[0],
    GIT_AUTHOR_EMAIL: NAMES.ann[1],
    GIT_COMMITTER_NAME: NAMES.ann[0],
    GIT_COMMITTER_EMAIL: NAMES.ann[1],
    GIT_AUTHOR_DATE: FIXED_DATE,
    GIT_COMMITTER_DATE: FIXED_DATE,
    GIT_EDITOR: "true",
    GIT_SEQUENCE_EDITOR: "true",
    GIT_TERMINAL_PROMPT: "0",
    GIT_PAGER: "cat",
    PAGER: "cat",
    LC_ALL: "C",
    LANG: "C",
    TZ: "UTC",
    RTK_NO_TRACK: "1",
    ...COMPACT_EVERY_OUTPUT,
    ...extra,
  };
}

export interface Ran {
  stdout: string;
  stderr: string;
  status: number;
}

function done(r: SpawnSyncReturns<string>): Ran {
  if (r.error) throw r.error;
  return { stdout: r.stdout, stderr: r.stderr, status: r.status ?? 128 };
}

/** Plain git, as the user would run it. */
export function runGit(args: readonly string[], cwd: string, env: Record<string, string>): Ran {
  return done(spawnSync("git", args, { cwd, env, encoding: "utf8", maxBuffer: 256 * 1024 * 1024 }));
}

/** `bin/rtk <argv…>`. */
export function runRtk(argv: readonly string[], cwd: string, env: Record<string, string>): Ran {
  return done(launchSync(argv, { cwd, env, timeout: 120000 }));
}

// ---------------------------------------------------------------- content

/** A small deterministic generator (the same world on every machine). */
function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const VERBS = ["load", "parse", "render", "validate", "merge", "resolve", "format", "encode", "decode", "collect", "flush", "retry"];
const NOUNS = ["Config", "Request", "Session", "Token", "Header", "Route", "Record", "Batch", "Cursor", "Snapshot", "Policy", "Entry"];
const FIELDS = ["timeout", "limit", "offset", "retries", "depth", "weight", "size", "level"];

/** A TypeScript-looking module of about `functions` × 8 lines. */
export function codeFile(name: string, seed: number, functions: number): string {
  const r = prng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)]!;
  const lines = [`// ${name}: part of the example application.`, `import { assertNever } from "./util/text.js";`, ""];
  for (let i = 0; i < functions; i++) {
    const fn = `${pick(VERBS)}${pick(NOUNS)}${i}`;
    const field = pick(FIELDS);
    const n = Math.floor(r() * 90) + 10;
    lines.push(
      `export function ${fn}(input: Options): Options {`,
      `  const value = input.${field} ?? ${n};`,
      `  if (value > ${n * 2}) {`,
      `    return { ...input, ${field}: value - ${n} };`,
      `  }`,
      `  return input;`,
      `}`,
      "",
    );
  }
  return lines.join("\n");
}

/** Replaces the 1-based lines of a text. */
function edit(text: string, changes: Record<number, string | string[]>): string {
  const lines = text.split("\n");
  for (const [k, v] of Object.entries(changes).sort((a, b) => Number(b[0]) - Number(a[0]))) {
    lines.splice(Number(k) - 1, 1, ...(Array.isArray(v) ? v : [v]));
  }
  return lines.join("\n");
}

function tableFile(rows: number, seed: number): string {
  const r = prng(seed);
  const out = ["id,name,region,amount"];
  for (let i = 1; i <= rows; i++) out.push(`${i},item-${Math.floor(r() * 1e6).toString(36)},${["eu", "us", "ap"][i % 3]},${(r() * 1000).toFixed(2)}`);
  return out.join("\n") + "\n";
}

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 6, 0, 0, 0]);

// ---------------------------------------------------------------- the world

export type Git = (...args: string[]) => Ran;

function gitIn(cwd: string, env: Record<string, string>): Git {
  return (...args) => {
    const r = runGit(args, cwd, env);
    if (r.status !== 0) throw new Error(`git ${args.join(" ")} failed in ${cwd}: ${r.stderr}`);
    return r;
  };
}

function put(path: string, text: string | Buffer): void {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** What the remote says after a push, as hosting services do. */
const HOOK = `#!/bin/sh
while read old new ref; do
  b=\${ref#refs/heads/}
  echo ""
  echo "To create a merge request for $b, visit:"
  echo "  https://git.example.com/acme/app/-/merge_requests/new?source=$b"
  echo ""
done
`;

/**
 * Builds the world under `root`: `origin.git`, `work` (the clone the fixtures
 * run in) and `other` (a clone that pushed two commits, a branch and a tag
 * that `work` has not fetched). Everything is dated and named, so every hash is
 * the same on every run.
 */
export function buildWorld(root: string): void {
  rmSync(root, { recursive: true, force: true });
  mkdirSync(root, { recursive: true });
  const base = gitEnv(root);
  const at = (day: number, who: Who = "ann", hour = 10): Record<string, string> => {
    const date = `2024-03-${String(day).padStart(2, "0")}T${String(hour).padStart(2, "0")}:15:00+0100`;
    return { ...base, GIT_AUTHOR_NAME: NAMES[who][0], GIT_AUTHOR_EMAIL: NAMES[who][1], GIT_AUTHOR_DATE: date, GIT_COMMITTER_DATE: date };
  };
  // No template: no sample hooks to copy around with every fixture.
  runGit(["-c", "init.defaultBranch=main", "init", "-q", "--template=", "--bare", "origin.git"], root, base);
  put(join(root, "origin.git", "hooks", "post-receive"), HOOK);
  chmodSync(join(root, "origin.git", "hooks", "post-receive"), 0o755);
  const work = join(root, "work");
  runGit(["-c", "init.defaultBranch=main", "init", "-q", "--template=", "work"], root, base);
  const w = (p: string) => join(work, p);
  let day = 1;
  const commit = (message: string, who: Who = "ann", files: Record<string, string | Buffer | null> = {}) => {
    const env = at(day++, who);
    const g = gitIn(work, env);
    for (const [p, text] of Object.entries(files)) {
      if (text === null) g("rm", "-q", p);
      else {
        put(w(p), text);
        g("add", p);
      }
    }
    g("commit", "-q", "--allow-empty", "-m", message);
    return g("rev-parse", "HEAD").stdout.trim();
  };
  const g = gitIn(work, base);
  g("remote", "add", "origin", "../origin.git");

  const modules = ["client", "config", "parser", "router", "session", "store", "render", "queue", "auth", "cache", "metrics", "server"];
  const src: Record<string, string> = {};
  modules.forEach((m, i) => (src[`src/${m}.ts`] = codeFile(m, 100 + i, 10 + (i % 5))));
  const initial: Record<string, string | Buffer> = {
    ...src,
    "src/util/strings.ts": codeFile("strings", 7, 6),
    "src/legacy/shim.ts": codeFile("shim", 8, 3),
    "scripts/release.sh": "#!/bin/sh\nset -e\nnpm run build\nnpm publish\n",
    "scripts/check.sh": "#!/bin/sh\nset -e\nnpm test\n",
    "docs/guide.md": "# Guide\n\nHow to use the example application.\n\n## Setup\n\nRun `npm install`.\n",
    "docs/api.md": "# API\n\nEvery exported function takes an `Options` object.\n",
    "README.md": "# example\n\nAn example application for rtk's git fixtures.\n\n## Usage\n\n    npm start\n",
    "package.json": JSON.stringify({ name: "example", version: "1.0.0", type: "module", scripts: { test: "node --test" } }, null, 2) + "\n",
    ".gitignore": "node_modules/\ndist/\n*.log\n",
    "data/table.csv": tableFile(2500, 3),
  };
  for (let i = 0; i < 4; i++) initial[`test/${modules[i]}.test.ts`] = codeFile(`${modules[i]} tests`, 200 + i, 4);
  commit("Initial import", "ann", initial);

  commit(
    "Add retry to the fetch client\n\nRetries idempotent requests up to three times with a backoff\nof 100 ms, 400 ms and 1.6 s. Non-idempotent requests are never\nretried.\n\nCloses #41",
    "bo",
    {
      "src/client.ts": edit(src["src/client.ts"]!, { 5: "  const value = input.retries ?? 3;", 13: ["  const value = input.timeout ?? 30;", "  // Retried with backoff by the caller."] }),
    },
  );
  commit("fix(parser): handle empty input\n\nAn empty document used to throw instead of returning no entries.\n\nFixes #57\nCo-authored-by: Cy Diaz <cy@example.com>", "ann", {
    "src/parser.ts": edit(src["src/parser.ts"]!, {
      4: ["export function parseEmpty(input: Options): Options {", "  return input;", "}", "", "export function parseRequest0(input: Options): Options {"],
    }),
    "test/parser.test.ts": codeFile("parser tests", 202, 5),
  });
  commit("docs: describe the setup", "cy", {
    "docs/guide.md": "# Guide\n\nHow to use the example application.\n\n## Setup\n\nRun `npm install`, then `npm start`.\n\n## Configuration\n\nSee `rtk.toml`.\n",
  });
  const tuned = edit(src["src/config.ts"]!, { 5: "  const value = input.timeout ?? 30;" });
  commit("Tune the default timeout", "bo", { "src/config.ts": tuned });
  // A branch merged with a merge commit.
  g("checkout", "-q", "-b", "feature/login");
  commit("Add the login form", "cy", { "src/auth.ts": edit(src["src/auth.ts"]!, { 3: ['export const LOGIN_PATH = "/login";', ""] }) });
  commit("Validate the login form\n\nResolves #63", "cy", {
    "src/auth.ts": edit(src["src/auth.ts"]!, { 3: ['export const LOGIN_PATH = "/login";', "export const MIN_PASSWORD = 12;", ""] }),
    "test/auth.test.ts": codeFile("auth tests", 300, 3),
  });
  g("checkout", "-q", "main");
  commit("Cache parsed routes", "ann", { "src/router.ts": edit(src["src/router.ts"]!, { 6: ["  if (value > 90) {", "    // cached"] }) });
  {
    const env = at(day++, "ann");
    gitIn(work, env)("merge", "-q", "--no-ff", "-m", "Merge branch 'feature/login'\n\n* feature/login:\n  Validate the login form\n  Add the login form", "feature/login");
  }
  commit("Rename util/strings to util/text", "bo", {});
  {
    const env = at(day - 1, "bo");
    const gg = gitIn(work, env);
    gg("mv", "src/util/strings.ts", "src/util/text.ts");
    put(w("src/util/text.ts"), edit(codeFile("strings", 7, 6), { 1: "// text: part of the example application." }));
    gg("add", "src/util/text.ts");
    gg("commit", "-q", "--amend", "--no-edit");
  }
  commit("Add the logo", "cy", { "assets/logo.png": PNG });
  commit("Make the scripts executable", "ann", {});
  {
    const gg = gitIn(work, at(day - 1, "ann"));
    chmodSync(w("scripts/release.sh"), 0o755);
    chmodSync(w("scripts/check.sh"), 0o755);
    gg("add", "scripts");
    gg("commit", "-q", "--amend", "--no-edit");
  }
  commit("feat!: drop the legacy config loader\n\nBREAKING CHANGE: config.json is no longer read; use rtk.toml.\n\nSigned-off-by: Ann Lee <ann@example.com>", "ann", { "src/legacy/shim.ts": null });
  commit("Log slow requests", "bo", { "src/server.ts": edit(src["src/server.ts"]!, { 5: "  const value = input.limit ?? 250;", 12: "  return input; // logged when slow" }) });
  const noisy = commit("Print the queue depth", "cy", { "src/queue.ts": edit(src["src/queue.ts"]!, { 7: "    console.log(value);" }) });
  commit(`Revert "Print the queue depth"\n\nThis reverts commit ${noisy}.`, "bo", { "src/queue.ts": src["src/queue.ts"]! });
  // A branch merged fast-forward (deletable with -d), and a topic branch left open.
  g("checkout", "-q", "-b", "old-fix");
  commit("Fix a typo in the API docs", "cy", { "docs/api.md": "# API\n\nEvery exported function takes an `Options` object and returns one.\n" });
  g("checkout", "-q", "main");
  gitIn(work, at(day, "ann"))("merge", "-q", "--ff-only", "old-fix");
  const store = edit(src["src/store.ts"]!, { 5: "  const value = input.size ?? 64;" });
  commit("Grow the store's default size\n\nCloses acme/app#70", "ann", { "src/store.ts": store });
  gitIn(work, at(day, "ann"))("tag", "-a", "v1.0.0", "-m", "Release 1.0.0\n\nThe first stable release.");
  // Branches that are not merged: `topic` rebases cleanly, `clash` conflicts with main.
  g("checkout", "-q", "-b", "topic", "HEAD~2");
  commit("Document the cache", "cy", { "docs/cache.md": "# Cache\n\nRoutes are cached after their first parse.\n" });
  commit("Cache statistics", "cy", { "src/cache.ts": edit(src["src/cache.ts"]!, { 3: ["export const CACHE_STATS = true;", ""] }) });
  g("checkout", "-q", "-b", "clash", "main~1");
  commit("Shrink the store's default size", "bo", { "src/store.ts": edit(src["src/store.ts"]!, { 5: "  const value = input.size ?? 16;" }), "docs/api.md": "# API\n\nOptions in, options out.\n" });
  g("checkout", "-q", "main");
  for (let i = 0; i < 6; i++) {
    const p = `src/${modules[i]}.ts`;
    const who = (["ann", "bo", "cy"] as const)[i % 3]!;
    const body = `Removes the dead branches left over from the ${modules[i]} rewrite and\nkeeps the exported names stable, so callers need no change.\n\nSigned-off-by: ${NAMES[who][0]} <${NAMES[who][1]}>`;
    commit(`Tidy ${modules[i]} module\n\n${body}`, who, { [p]: `${readFileSync(w(p), "utf8")}// tidy ${i}\n` });
  }
  g("push", "-q", "-u", "origin", "main", "feature/login", "old-fix");
  g("push", "-q", "origin", "v1.0.0");

  // `other`: pushes what `work` has not seen.
  runGit(["clone", "-q", "--template=", "origin.git", "other"], root, base);
  const other = join(root, "other");
  const o = gitIn(other, base);
  o("remote", "set-url", "origin", "../origin.git");
  const ocommit = (message: string, who: Who, files: Record<string, string | Buffer>) => {
    const og = gitIn(other, at(day++, who, 15));
    for (const [p, text] of Object.entries(files)) {
      put(join(other, p), text);
      og("add", p);
    }
    og("commit", "-q", "-m", message);
  };
  ocommit("Add request metrics", "bo", {
    "src/metrics.ts": codeFile("metrics", 999, 6),
    "docs/metrics.md": "# Metrics\n\nCounters for every request.\n",
    "src/client.ts": `${src["src/client.ts"]!}// metrics hook\n`,
  });
  ocommit("Bump the version to 1.1.0", "ann", { "package.json": JSON.stringify({ name: "example", version: "1.1.0", type: "module", scripts: { test: "node --test" } }, null, 2) + "\n" });
  gitIn(other, at(day, "ann", 15))("tag", "-a", "v1.1.0", "-m", "Release 1.1.0");
  o("push", "-q", "origin", "main", "v1.1.0");
  o("checkout", "-q", "-b", "release/1.1");
  o("push", "-q", "origin", "release/1.1");
  // Packed, the world is a few files: quick to copy for every fixture.
  for (const repo of ["origin.git", "work", "other"]) runGit(["gc", "-q", "--prune=now"], join(root, repo), base);
}

// ---------------------------------------------------------------- fixtures

export type Route = "status" | "log" | "diff" | "action";

export interface GitFixture {
  name: string;
  route: Route;
  /** git's arguments (the subcommand first). */
  args: string[];
  /** The clone the command runs in. */
  clone?: "work" | "other";
  /** Brings the copy of the world into the state the command needs. */
  setup?: (git: Git, dir: string) => void;
  /** A realistic medium case: counts toward the savings targets. */
  medium?: boolean;
}

/** Savings targets (percent of estimated tokens) for the medium fixtures of each route. */
export const TARGETS: Record<Route, number> = { status: 80, log: 80, diff: 60, action: 90 };

/** The per-command targets of the brief, for the actions that have one. */
export const ACTION_TARGETS: Record<string, number> = { add: 90, commit: 90, push: 90 };

const mixedChanges = (git: Git, dir: string) => {
  const p = (f: string) => join(dir, f);
  put(p("src/client.ts"), codeFile("client", 100, 10) + "// edited\n");
  put(p("src/router.ts"), codeFile("router", 103, 13).replace("return input;", "return { ...input };"));
  put(p("docs/guide.md"), "# Guide\n\nRewritten.\n");
  put(p("src/feature.ts"), codeFile("feature", 1, 2));
  put(p("src/feature-flags.ts"), codeFile("feature-flags", 2, 2));
  git("add", "src/feature.ts", "src/feature-flags.ts", "src/client.ts");
  git("rm", "-q", "scripts/check.sh");
  git("mv", "docs/api.md", "docs/reference.md");
  for (const f of ["notes.txt", "todo.md", "scratch/a.log.txt", "scratch/b.txt", "src/wip.ts", "build.sh"]) put(p(f), "draft\n");
};

/** Several hunks in several files: what a working diff usually looks like. */
const workingEdits = (_git: Git, dir: string) => {
  const p = (f: string) => join(dir, f);
  const at = (f: string, seed: number, fns: number, changes: Record<number, string | string[]>, tail = "") => put(p(f), edit(codeFile(f.replace(/^src\/|\.ts$/g, ""), seed, fns), changes) + tail);
  at(
    "src/client.ts",
    100,
    10,
    {
      5: "  const value = input.retries ?? 5;",
      21: ["  const value = input.limit ?? 12;", "  // clamp the limit"],
      46: "    return { ...input, depth: value - 1 };",
      70: ["export function closeClient(input: Options): Options {", "  return input;", "}", ""],
    },
    "// metrics hook\n",
  );
  at("src/parser.ts", 102, 12, { 13: "  const value = input.offset ?? 0;", 38: "  if (value > 200) {", 60: ["  return input;", "  // unreachable before 2.0"], 90: "  return { ...input };" });
  at("src/router.ts", 103, 13, { 6: "  if (value > 90) {", 30: "    return { ...input, size: value - 12 };", 77: ["", "export function routeAll(input: Options): Options {", "  return input;", "}"] });
  at("src/session.ts", 104, 14, { 20: "  const value = input.level ?? 3;", 52: "  return input; // session kept" });
  at("src/auth.ts", 108, 13, { 3: ['export const LOGIN_PATH = "/signin";', "export const MIN_PASSWORD = 14;", ""], 45: "  const value = input.weight ?? 7;" });
  put(p("README.md"), "# example\n\nAn example application for rtk's git fixtures.\n\n## Usage\n\n    npm start -- --port 8080\n\n## License\n\nMIT\n");
};

/** Runs a git command that is expected to fail (a conflict). */
function failing(git: Git, ...args: string[]): void {
  try {
    git(...args);
  } catch {
    // the state the fixture needs
  }
}

export const FIXTURES: readonly GitFixture[] = [
  // git status
  { name: "status-clean", route: "status", args: ["status"] },
  { name: "status-mixed", route: "status", args: ["status"], setup: mixedChanges, medium: true },
  { name: "status-conflict", route: "status", args: ["status"], setup: (git) => failing(git, "merge", "clash"), medium: true },
  { name: "status-rebase-conflict", route: "status", args: ["status"], setup: (git) => (git("checkout", "-q", "clash"), failing(git, "rebase", "main")) },
  { name: "status-detached", route: "status", args: ["status"], setup: (git) => git("checkout", "-q", "HEAD~3") },
  {
    name: "status-diverged",
    route: "status",
    args: ["status"],
    setup: (git, dir) => {
      git("fetch", "-q");
      put(join(dir, "src/local.ts"), "export const LOCAL = 1;\n");
      git("add", "src/local.ts");
      git("commit", "-q", "-m", "Local work");
      put(join(dir, "src/cache.ts"), "// rewritten\n");
    },
    medium: true,
  },
  {
    name: "status-many-untracked",
    route: "status",
    args: ["status", "-uall"],
    setup: (_git, dir) => {
      for (let i = 0; i < 120; i++) put(join(dir, `gen/out-${String(i).padStart(3, "0")}.json`), "{}\n");
    },
  },
  { name: "status-short", route: "status", args: ["status", "--short"], setup: mixedChanges },
  { name: "status-not-a-repo", route: "status", args: ["status"], setup: (_git, dir) => rmSync(join(dir, ".git"), { recursive: true, force: true }) },

  // git log
  { name: "log", route: "log", args: ["log"], medium: true },
  { name: "log-5", route: "log", args: ["log", "-5"], medium: true },
  { name: "log-1", route: "log", args: ["log", "-1", "HEAD~6"] },
  { name: "log-merges", route: "log", args: ["log", "--merges"] },
  { name: "log-decorate", route: "log", args: ["log", "--decorate", "-8", "--all"] },
  { name: "log-patch", route: "log", args: ["log", "-p", "-6"], medium: true },
  { name: "log-stat", route: "log", args: ["log", "--stat", "-6"], medium: true },
  { name: "log-oneline", route: "log", args: ["log", "--oneline"] },
  { name: "log-format", route: "log", args: ["log", "--format=%h %an %s", "-10"] },
  { name: "log-oneline-patch", route: "log", args: ["log", "--oneline", "-p", "-3"] },
  { name: "log-graph", route: "log", args: ["log", "--graph", "--oneline", "--all"] },
  { name: "log-path", route: "log", args: ["log", "--follow", "--", "src/util/text.ts"] },
  { name: "log-bad-revision", route: "log", args: ["log", "no-such-branch"] },

  // git diff / git show
  { name: "diff-working", route: "diff", args: ["diff"], setup: workingEdits, medium: true },
  { name: "diff-staged", route: "diff", args: ["diff", "--cached"], setup: mixedChanges },
  {
    name: "diff-kinds",
    route: "diff",
    args: ["diff", "--cached", "-M"],
    setup: (git, dir) => {
      put(join(dir, "assets/logo.png"), Buffer.concat([PNG, Buffer.from([1, 2, 3, 0])]));
      put(join(dir, "assets/icon.png"), PNG);
      git("mv", "docs/guide.md", "docs/handbook.md");
      put(
        join(dir, "docs/handbook.md"),
        "# Guide\n\nHow to use the example application.\n\n## Setup\n\nRun `npm install`, then `npm start`.\n\n## Configuration\n\nSee `rtk.toml` and `rtk.local.toml`.\n",
      );
      chmodSync(join(dir, "package.json"), 0o755);
      git("rm", "-q", "src/render.ts");
      put(join(dir, "docs/release notes.md"), "# Release notes\n\n- 1.0.0: first stable release\n");
      put(join(dir, "docs/caf\u00e9.md"), "# Caf\u00e9\n");
      git("add", "-A");
    },
  },
  {
    name: "diff-huge",
    route: "diff",
    args: ["diff"],
    setup: (_git, dir) => {
      put(join(dir, "data/table.csv"), tableFile(2500, 4));
      put(join(dir, "src/queue.ts"), codeFile("queue", 107, 11).replace("return input;", "return { ...input, queued: true };"));
    },
  },
  { name: "diff-conflict", route: "diff", args: ["diff"], setup: (git) => failing(git, "merge", "clash") },
  { name: "diff-range", route: "diff", args: ["diff", "v1.0.0~6", "v1.0.0"], medium: true },
  { name: "diff-stat", route: "diff", args: ["diff", "--stat", "HEAD~8"] },
  { name: "diff-name-only", route: "diff", args: ["diff", "--name-only", "HEAD~8"] },
  { name: "diff-no-prefix", route: "diff", args: ["diff", "--no-prefix", "HEAD~3"] },
  { name: "diff-unified-0", route: "diff", args: ["diff", "-U0"], setup: workingEdits },
  { name: "diff-exit-code", route: "diff", args: ["diff", "--exit-code"], setup: workingEdits },
  { name: "diff-no-changes", route: "diff", args: ["diff"] },
  { name: "show", route: "diff", args: ["show", "v1.0.0~6"], medium: true },
  { name: "show-merge", route: "diff", args: ["show", ":/Merge branch"] },
  { name: "show-merge-m", route: "diff", args: ["show", "-m", "--first-parent", ":/Merge branch"] },
  { name: "show-tag", route: "diff", args: ["show", "v1.0.0"] },
  { name: "show-stat", route: "diff", args: ["show", "--stat", "HEAD~7"] },
  { name: "show-blob", route: "diff", args: ["show", "HEAD:README.md"] },
  { name: "show-binary", route: "diff", args: ["show", ":/Add the logo"] },
  { name: "show-initial", route: "diff", args: ["show", ":/Initial import"] },

  // git add / commit / push / pull / fetch / branch / stash / checkout / switch / merge / rebase
  { name: "add", route: "action", args: ["add", "-A"], setup: mixedChanges },
  { name: "add-verbose", route: "action", args: ["add", "-v", "."], setup: mixedChanges, medium: true },
  { name: "add-missing", route: "action", args: ["add", "no-such-file.ts"] },
  { name: "add-ignored", route: "action", args: ["add", "debug.log"], setup: (_git, dir) => put(join(dir, "debug.log"), "x\n") },
  { name: "commit", route: "action", args: ["commit", "-m", "Add the feature flags\n\nCloses #88"], setup: mixedChanges, medium: true },
  { name: "commit-all", route: "action", args: ["commit", "-a", "-m", "Rework the handlers"], setup: workingEdits, medium: true },
  { name: "commit-nothing", route: "action", args: ["commit", "-m", "nothing"] },
  { name: "commit-amend", route: "action", args: ["commit", "--amend", "-m", "Tidy the server module"] },
  {
    name: "push-new-branch",
    route: "action",
    args: ["push", "-u", "origin", "topic"],
    medium: true,
  },
  {
    name: "push-progress",
    route: "action",
    args: ["push", "--progress", "-u", "origin", "topic"],
    medium: true,
  },
  {
    name: "push-rejected",
    route: "action",
    args: ["push"],
    setup: (git, dir) => {
      put(join(dir, "src/local.ts"), "export const LOCAL = 1;\n");
      git("add", "src/local.ts");
      git("commit", "-q", "-m", "Local work");
    },
  },
  {
    name: "push-fast-forward",
    route: "action",
    args: ["push"],
    clone: "other",
    setup: (git, dir) => {
      git("checkout", "-q", "main");
      put(join(dir, "docs/metrics.md"), "# Metrics\n\nCounters and timers for every request.\n");
      git("commit", "-q", "-am", "Describe the timers");
    },
    medium: true,
  },
  { name: "push-up-to-date", route: "action", args: ["push", "origin", "main"], clone: "other", setup: (git) => git("checkout", "-q", "main") },
  { name: "pull", route: "action", args: ["pull"], medium: true },
  {
    name: "pull-conflict",
    route: "action",
    args: ["pull", "--no-rebase"],
    setup: (git, dir) => {
      put(join(dir, "package.json"), JSON.stringify({ name: "example", version: "1.0.1", type: "module", scripts: { test: "node --test" } }, null, 2) + "\n");
      git("commit", "-q", "-am", "Bump the version to 1.0.1");
    },
  },
  { name: "fetch", route: "action", args: ["fetch"], medium: true },
  { name: "fetch-progress", route: "action", args: ["fetch", "--progress", "origin"] },
  { name: "branch", route: "action", args: ["branch"] },
  { name: "branch-verbose", route: "action", args: ["branch", "-vv"] },
  { name: "branch-delete", route: "action", args: ["branch", "-d", "old-fix"] },
  { name: "branch-delete-unmerged", route: "action", args: ["branch", "-d", "clash"] },
  { name: "stash", route: "action", args: ["stash"], setup: workingEdits },
  { name: "stash-pop", route: "action", args: ["stash", "pop"], setup: (git, dir) => (workingEdits(git, dir), git("stash", "-q")), medium: true },
  { name: "stash-show-patch", route: "action", args: ["stash", "show", "-p"], setup: (git, dir) => (workingEdits(git, dir), git("stash", "-q")) },
  { name: "stash-list", route: "action", args: ["stash", "list"], setup: (git, dir) => (workingEdits(git, dir), git("stash", "-q")) },
  { name: "checkout-detached", route: "action", args: ["checkout", "HEAD~4"], medium: true },
  { name: "checkout-branch", route: "action", args: ["checkout", "topic"] },
  { name: "checkout-new-branch", route: "action", args: ["checkout", "-b", "spike"] },
  { name: "checkout-would-overwrite", route: "action", args: ["checkout", "clash"], setup: (_git, dir) => put(join(dir, "src/store.ts"), "// local edit\n") },
  { name: "checkout-files", route: "action", args: ["checkout", "--", "src"], setup: workingEdits },
  { name: "switch", route: "action", args: ["switch", "topic"], setup: (_git, dir) => put(join(dir, "README.md"), "# local\n") },
  { name: "switch-missing", route: "action", args: ["switch", "no-such-branch"] },
  { name: "merge-no-ff", route: "action", args: ["merge", "--no-ff", "-m", "Merge branch 'topic'", "topic"], medium: true },
  { name: "merge-fast-forward", route: "action", args: ["merge", "origin/main"], setup: (git) => git("fetch", "-q"), medium: true },
  { name: "merge-conflict", route: "action", args: ["merge", "clash"] },
  { name: "merge-up-to-date", route: "action", args: ["merge", "old-fix"] },
  { name: "rebase", route: "action", args: ["rebase", "main"], setup: (git) => git("checkout", "-q", "topic") },
  { name: "rebase-conflict", route: "action", args: ["rebase", "main"], setup: (git) => git("checkout", "-q", "clash") },
];

/** Whether the command leaves the repository as it found it (then plain git and rtk can run on one copy). */
export function readOnly(f: GitFixture): boolean {
  if (f.route !== "action") return true;
  const [sub, ...rest] = f.args;
  if (sub === "branch") return !rest.some((a) => /^-[dDmMcC]$|^--(?:delete|move|copy)$/.test(a)) && !rest.some((a) => !a.startsWith("-"));
  if (sub === "stash") return rest[0] === "list" || rest[0] === "show";
  return false;
}

/** A fresh copy of the world with the fixture's setup applied; returns the folder the command runs in. */
export function instantiate(world: string, into: string, fixture: GitFixture, env: Record<string, string>): string {
  rmSync(into, { recursive: true, force: true });
  cpSync(world, into, { recursive: true, preserveTimestamps: true });
  const dir = join(into, fixture.clone ?? "work");
  fixture.setup?.(gitIn(dir, env), dir);
  return dir;
}

// ---------------------------------------------------------------- facts

export type FactKind = "path" | "hash" | "hunk" | "change" | "conflict" | "error" | "branch" | "subject" | "author" | "date" | "body" | "verdict" | "summary";

export interface Fact {
  kind: FactKind;
  value: string;
  /** Must be a whole line of the compact output (else: a substring of it). */
  line: boolean;
}

const MONTH = { Jan: 1, Feb: 2, Mar: 3, Apr: 4, May: 5, Jun: 6, Jul: 7, Aug: 8, Sep: 9, Oct: 10, Nov: 11, Dec: 12 } as const;

/** `Mon Mar 4 10:15:00 2024 +0100` → `2024-03-04` (the author's own calendar day). */
export function isoDay(gitDate: string): string {
  const m = /^\w{3} (\w{3}) (\d+) [\d:]+ (\d{4}) [+-]\d{4}$/.exec(gitDate.trim());
  if (!m) return gitDate.trim();
  const month = MONTH[m[1] as keyof typeof MONTH];
  return `${m[3]}-${String(month).padStart(2, "0")}-${m[2]!.padStart(2, "0")}`;
}

/** Paths of `diff --git a/X b/Y` when both sides are the same path. */
function gitLinePath(rest: string): string | null {
  const m = /^"?a\/(.*?)"? "?b\/(.*?)"?$/.exec(rest);
  if (m && m[1] === m[2]) return m[1]!;
  return null;
}

const STATUS_ENTRY = /^\t(?:(?:new file|modified|deleted|renamed|copied|typechange|both modified|both added|both deleted|added by us|added by them|deleted by us|deleted by them):\s+)?(.+)$/;
const ADVICE = /^hint: (?:Disable this message|Turn this message off|"git config advice)/;

/**
 * Every fact of a raw git output, from git's formats alone: paths, commit
 * hashes, hunk headers, `+`/`-` lines, conflicts, errors and hints, branch
 * names, log subjects, authors, days and meaningful body lines, verdicts and
 * git's own summary counts.
 */
export function extractFacts(raw: { stdout: string; stderr: string }, sub: string): Fact[] {
  const facts: Fact[] = [];
  const add = (kind: FactKind, value: string, line = false) => {
    if (value) facts.push({ kind, value, line });
  };
  const hash = (h: string) => add("hash", h.slice(0, 7));
  for (const text of [raw.stdout, raw.stderr]) {
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    let hunk = 0; // 0: outside, else the width of the hunk's line prefix
    let message: "no" | "header" | "first" | "body" = "no";
    let tagMessage = false;
    let pathsFollow = false;
    for (const raw0 of lines) {
      // What a terminal shows (progress rewritten in place); a patch line keeps its CR: it is content.
      const t = raw0.endsWith("\r") ? raw0.slice(0, -1) : raw0;
      const l = t.includes("\r") ? t.slice(t.lastIndexOf("\r") + 1) : t;
      let m: RegExpExecArray | null;
      if (hunk) {
        const prefix = raw0.slice(0, hunk);
        if (raw0.startsWith("\\")) continue;
        if (prefix.length === hunk && /^[ +-]+$/.test(prefix)) {
          if (/[+-]/.test(prefix)) add("change", raw0, true);
          continue;
        }
        hunk = 0;
      }
      if ((m = /^(@@+) /.exec(l))) {
        add("hunk", l, true);
        hunk = m[1]!.length - 1;
        continue;
      }
      if ((m = /^commit ([0-9a-f]{40})/.exec(l))) {
        hash(m[1]!);
        message = "header";
        tagMessage = false;
        continue;
      }
      if ((m = /^tag (\S+)$/.exec(l))) {
        add("branch", m[1]!);
        message = "header";
        tagMessage = true;
        continue;
      }
      if (message === "header") {
        if ((m = /^Merge: (.+)$/.exec(l))) m[1]!.split(" ").forEach(hash);
        else if ((m = /^(?:Author|Tagger): (.+?) </.exec(l))) add("author", m[1]!);
        else if ((m = /^Date: +(.+)$/.exec(l))) add("date", `${isoDay(m[1]!)}|${m[1]!.trim()}`);
        else if (l === "") message = "first";
        continue;
      }
      if (message === "first" || message === "body") {
        const body = tagMessage ? (l === "" ? null : l) : l.startsWith("    ") ? l.slice(4) : null;
        if (body !== null || (tagMessage && l === "")) {
          if (body === null || body.trim() === "") continue;
          if (message === "first") add("subject", body.trim());
          else if (/BREAKING|\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b|This reverts commit/i.test(body)) {
            add("body", body.trim());
            for (const h of body.match(/\b[0-9a-f]{40}\b/g) ?? []) hash(h);
          }
          message = "body";
          continue;
        }
        message = "no";
      }
      if ((m = /^diff --git (.+)$/.exec(l))) {
        add("path", gitLinePath(m[1]!) ?? "");
        continue;
      }
      if ((m = /^diff --(?:cc|combined) (.+)$/.exec(l))) {
        add("path", m[1]!);
        continue;
      }
      if ((m = /^--- "?(?:a\/)?(.+?)"?\t?$/.exec(l)) || (m = /^\+\+\+ "?(?:b\/)?(.+?)"?\t?$/.exec(l))) {
        if (m[1] !== "/dev/null") add("path", m[1]!);
        continue;
      }
      if ((m = /^(?:rename|copy) (?:from|to) (.+)$/.exec(l))) {
        add("path", m[1]!);
        continue;
      }
      if ((m = STATUS_ENTRY.exec(l)) && !/^\t(?:git |\(use)/.test(l)) {
        for (const p of m[1]!.replace(/ \((?:new commits|modified content|untracked content)(?:, [a-z ]+)*\)$/, "").split(" -> ")) add("path", p.trim());
        continue;
      }
      if ((m = /^ (.+?) +\| +(?:\d+|Bin)/.exec(l))) {
        add("path", m[1]!);
        continue;
      }
      if ((m = /^ (\d+) files? changed(?:, (\d+) insertions?\(\+\))?(?:, (\d+) deletions?\(-\))?$/.exec(l))) {
        add("summary", `${m[1]}|${m[2] ?? 0}|${m[3] ?? 0}`);
        continue;
      }
      if ((m = /^ (?:create|delete) mode \d+ (.+)$/.exec(l)) || (m = /^ (?:rename|copy) (.+) \(\d+%\)$/.exec(l)) || (m = /^ mode change \d+ => \d+ (.+)$/.exec(l))) {
        // A commit's paths are what its caller staged: its facts are the hash, the branch and the counts.
        if (sub !== "commit") add("path", m[1]!);
        continue;
      }
      if (/^CONFLICT |^Automatic merge failed|^Could not apply /.test(l)) {
        add("conflict", l, true);
        for (const h of l.match(/\b[0-9a-f]{7,40}\b/g) ?? []) hash(h);
        if ((m = /Merge conflict in (.+)$/.exec(l))) add("path", m[1]!);
        continue;
      }
      if (/^(?:error|fatal|warning): /.test(l) || (/^hint: /.test(l) && !ADVICE.test(l)) || /^ ! \[/.test(l) || /^Aborting$/.test(l)) {
        add("error", l, true);
        for (const h of l.match(/\b[0-9a-f]{7,40}\b/g) ?? []) hash(h);
        pathsFollow = /following (?:untracked working tree )?files would be|following paths are ignored/.test(l);
        continue;
      }
      if (pathsFollow && (m = /^\t?(\S.*)$/.exec(l)) && !/^(?:Please|hint|Aborting|Use -f)/.test(l)) {
        add("path", m[1]!);
        continue;
      }
      pathsFollow = false;
      if ((m = /^On branch (.+)$/.exec(l)) || (m = /^Switched to (?:a new )?branch '(.+)'$/.exec(l)) || (m = /^Already on '(.+)'$/.exec(l))) {
        add("branch", m[1]!);
        continue;
      }
      if ((m = /^Your branch .*'([^']+)'/.exec(l))) {
        add("branch", m[1]!);
        if ((m = /by (\d+) commits?/.exec(l))) add("verdict", m[1]!);
        continue;
      }
      if ((m = /^and have (\d+) and (\d+) different commits/.exec(l))) {
        add("verdict", m[1]!);
        add("verdict", m[2]!);
        continue;
      }
      if ((m = /^branch '(.+)' set up to track '(.+)'\.$/.exec(l))) {
        add("branch", m[1]!);
        add("branch", m[2]!);
        continue;
      }
      if ((m = /^\[(\S+)(?: \(root-commit\))? ([0-9a-f]{7,})\] (.+)$/.exec(l)) || (m = /^\[(detached HEAD) ([0-9a-f]{7,})\] (.+)$/.exec(l))) {
        add("branch", m[1]!);
        hash(m[2]!);
        add("subject", m[3]!);
        continue;
      }
      if ((m = /^ [ +*=!t-] (\S+|\[[^\]]+\])\s+(\S+)(?:\s+->\s+(\S+))?/.exec(l))) {
        for (const h of m[1]!.match(/[0-9a-f]{7,}/g) ?? []) hash(h);
        add("branch", m[2]!);
        if (m[3]) add("branch", m[3]);
        continue;
      }
      if ((m = /^(?:To|From) (.+)$/.exec(l))) {
        add("branch", m[1]!);
        continue;
      }
      if ((m = /^(?:HEAD is now at|Previous HEAD position was|HEAD detached (?:at|from)) ([0-9a-f]{7,})(?: (.*))?$/.exec(l))) {
        hash(m[1]!);
        if (m[2]) add("subject", m[2]);
        continue;
      }
      if ((m = /^Updating ([0-9a-f]{7,})\.\.([0-9a-f]{7,})$/.exec(l))) {
        hash(m[1]!);
        hash(m[2]!);
        continue;
      }
      if ((m = /^Deleted branch (\S+) \(was ([0-9a-f]{7,})\)\.$/.exec(l))) {
        add("branch", m[1]!);
        hash(m[2]!);
        continue;
      }
      if ((m = /^(?:Saved working directory and index state|Dropped) (.+)$/.exec(l))) {
        for (const h of m[1]!.match(/\b[0-9a-f]{7,40}\b/g) ?? []) hash(h);
        continue;
      }
      if ((m = /^(?:interactive rebase in progress; onto|You are currently rebasing branch '(.+)' on ')([0-9a-f]{7,})/.exec(l))) {
        if (m[1]) add("branch", m[1]);
        continue;
      }
      if ((m = /^ {3}pick ([0-9a-f]{7,}) (.+)$/.exec(l))) {
        hash(m[1]!);
        continue;
      }
      if ((m = /^(?:add|remove) '(.+)'$/.exec(l))) {
        add("path", m[1]!);
        continue;
      }
      if ((m = /^[MADRCTU]\t(.+)$/.exec(l))) {
        add("path", m[1]!);
        continue;
      }
      if (sub === "branch" && (m = /^[* +] (\S+)(?: +([0-9a-f]{7,}) )?/.exec(l))) {
        add("branch", m[1]!);
        if (m[2]) hash(m[2]);
        continue;
      }
      if (sub === "stash" && (m = /^(stash@\{\d+\}): .*?([0-9a-f]{7,})/.exec(l))) {
        add("branch", m[1]!);
        hash(m[2]!);
        continue;
      }
      if (l === "nothing to commit, working tree clean") {
        add("verdict", "clean");
        continue;
      }
      if (
        /^(?:Already up to date\.|Everything up-to-date|Current branch .* is up to date\.|Successfully rebased and updated .*|Fast-forward|Merge made by the '.*' strategy\.|No local changes to save|You have unmerged paths\.|All conflicts fixed but you are still merging\.)$/.test(
          l,
        )
      ) {
        add("verdict", l.replace(/\.$/, ""));
        continue;
      }
    }
  }
  return facts;
}

// ---------------------------------------------------------------- checking

export interface Marker {
  count: number;
  what: string;
  id: string;
}

const MARKER = /… \+(\d+) more (.+?) \[rtk recall ([0-9a-f]{7}|unavailable)\]/g;

export function markers(text: string): Marker[] {
  return [...text.matchAll(MARKER)].map((m) => ({ count: Number(m[1]), what: m[2]!, id: m[3]! }));
}

/** Which markers may stand for a missing fact of each kind. */
const HIDES: Record<FactKind, RegExp> = {
  change: /^lines/,
  path: /paths|^lines|refs/,
  hash: /refs|^lines|message|paths/,
  body: /message|^lines/,
  hunk: /^lines(?! of this hunk)/,
  conflict: /^lines(?! of this hunk)/,
  error: /^lines(?! of this hunk)/,
  branch: /refs|^lines(?! of this hunk)/,
  subject: /^lines(?! of this hunk)/,
  author: /^lines(?! of this hunk)/,
  date: /^lines(?! of this hunk)/,
  verdict: /^lines(?! of this hunk)/,
  summary: /^lines(?! of this hunk)/,
};

/** Whether the compact output states a fact. */
function present(f: Fact, compact: string, lines: ReadonlyMap<string, number>): boolean {
  if (f.kind === "summary") {
    const [files, ins, del] = f.value.split("|").map(Number) as [number, number, number];
    return compact.split("\n").some((l) => new RegExp(`\\b${files} files? changed\\b`).test(l) && (!ins || new RegExp(`\\b${ins}\\b`).test(l)) && (!del || new RegExp(`\\b${del}\\b`).test(l)));
  }
  // A day is stated as such or in git's own words.
  if (f.kind === "date") return f.value.split("|").some((d) => compact.includes(d));
  if (f.line) return (lines.get(f.value) ?? 0) > 0;
  return compact.includes(f.value);
}

export interface FactReport {
  facts: number;
  /** Facts not in the compact output but accounted for by a marker's recall. */
  recalled: number;
  problems: string[];
}

/**
 * Checks every fact: present in the compact output, or accounted for by an
 * omission marker whose recall holds it — and, for line facts, no more
 * missing than the markers count. `recall(id)` returns a recall entry's text.
 */
export function checkFacts(facts: readonly Fact[], compact: string, recall: (id: string) => string): FactReport {
  const lines = new Map<string, number>();
  for (const l of compact.split("\n")) lines.set(l, (lines.get(l) ?? 0) + 1);
  const ms = markers(compact);
  const texts = new Map<string, string>();
  const recallText = (id: string) => {
    if (!texts.has(id)) texts.set(id, recall(id));
    return texts.get(id)!;
  };
  const problems: string[] = [];
  let recalled = 0;
  const missing = new Map<FactKind, Fact[]>();
  for (const f of facts) {
    if (f.line) {
      // Line facts are counted: each occurrence in the raw output needs one in the compact output.
      const n = lines.get(f.value) ?? 0;
      if (n > 0) {
        lines.set(f.value, n - 1);
        continue;
      }
    } else if (present(f, compact, lines)) continue;
    missing.set(f.kind, [...(missing.get(f.kind) ?? []), f]);
  }
  for (const [kind, fs] of missing) {
    const allowed = ms.filter((m) => HIDES[kind].test(m.what) && m.id !== "unavailable");
    const budget = allowed.reduce((n, m) => n + m.count, 0);
    if (!allowed.length) {
      for (const f of fs.slice(0, 20)) problems.push(`missing ${kind}: ${JSON.stringify(f.value)}`);
      if (fs.length > 20) problems.push(`… and ${fs.length - 20} more missing ${kind} facts`);
      continue;
    }
    if (fs.length > budget) problems.push(`${fs.length} ${kind} facts missing but the markers account for ${budget}`);
    for (const f of fs) {
      const value = f.kind === "summary" ? f.value.split("|")[0]! : f.value;
      if (allowed.some((m) => recallText(m.id).includes(value))) recalled++;
      else problems.push(`missing ${kind} not in any recall: ${JSON.stringify(f.value)}`);
    }
  }
  return { facts: facts.length, recalled, problems };
}

/** The token estimate used for the savings: bytes / 4. */
export function tokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text) / 4);
}

export function savings(raw: Ran, compact: Ran): number {
  const r = tokens(raw.stdout + raw.stderr);
  const c = tokens(compact.stdout + compact.stderr);
  return r === 0 ? 0 : Math.round(((r - c) / r) * 1000) / 10;
}
