// rtk installed the ways users install a Node CLI, from a copy of this checkout's
// files (what git would clone, plus uncommitted changes): `npm pack` and its file
// list; `npm install -g` of the tarball into a temporary prefix, then rtk run from
// there; the tarball in a fresh app, loaded with require, import and type-checked
// with tsc (and the README's library example run as written); `npx` from the
// tarball; and `npm install -g` of a fresh clone folder (no node_modules, no dist).
// Dependencies come from the local npm cache, else the registry.
import assert from "node:assert/strict";
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { repoRoot } from "../support/corpus.js";

const VERSION = (JSON.parse(readFileSync(join(repoRoot, "package.json"), "utf8")) as { version: string }).version;
const TSC = join(repoRoot, "node_modules", "typescript", "bin", "tsc");
const NODE_DIR = dirname(process.execPath);

const root = mkdtempSync(join(tmpdir(), "rtk-package-"));
after(() => rmSync(root, { recursive: true, force: true }));

/** The environment without the outer npm's settings (npm test sets npm_config_* for its children). */
function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (v === undefined || /^npm_/i.test(k) || k.startsWith("RTK_") || k === "NODE_OPTIONS" || k.startsWith("NODE_TEST")) continue;
    env[k] = v;
  }
  // The registry may need the machine's extra certificates (the test runner keeps them aside).
  const certs = process.env["RTK_TEST_NODE_EXTRA_CA_CERTS"];
  if (certs) env["NODE_EXTRA_CA_CERTS"] = certs;
  return { ...env, HOME: join(root, "home"), XDG_CACHE_HOME: join(root, "xdg-cache"), XDG_CONFIG_HOME: join(root, "home", ".config"), ...extra };
}

/** The user's npm cache: where `npm ci` left every dependency. */
const NPM_CACHE = (() => {
  const outer = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_config_(global|prefix|location)$/i.test(k))) as Record<string, string>;
  return spawnSync("npm", ["config", "get", "cache"], { encoding: "utf8", env: outer }).stdout.trim() || join(process.env["HOME"] ?? "/root", ".npm");
})();

function npm(args: string[], cwd: string, extra: Record<string, string> = {}): SpawnSyncReturns<string> {
  const env = cleanEnv({ npm_config_cache: NPM_CACHE, npm_config_update_notifier: "false", npm_config_audit: "false", npm_config_fund: "false", ...extra });
  const r = spawnSync("npm", args, { cwd, env, encoding: "utf8", timeout: 600_000 });
  assert.equal(r.status, 0, `npm ${args.join(" ")} in ${cwd}: exit ${r.status}\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** The checkout's files as git would clone them (tracked and new, not ignored), with uncommitted changes. */
function copySource(to: string): void {
  const ls = spawnSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: repoRoot, encoding: "utf8" });
  assert.equal(ls.status, 0, ls.stderr);
  for (const f of ls.stdout.split("\0").filter(Boolean)) {
    let st;
    try {
      st = statSync(join(repoRoot, f));
    } catch {
      continue; // deleted in the working tree
    }
    if (!st.isFile()) continue;
    mkdirSync(dirname(join(to, f)), { recursive: true });
    copyFileSync(join(repoRoot, f), join(to, f));
  }
}

function gitRepo(dir: string, env: Record<string, string>): void {
  mkdirSync(dir, { recursive: true });
  for (const args of [
    ["init", "-q", "-b", "main"],
    ["add", "."],
    ["-c", "user.name=t", "-c", "user.email=t@example.com", "commit", "-q", "-m", "one"],
  ]) {
    const r = spawnSync("git", args, { cwd: dir, env, encoding: "utf8" });
    assert.equal(r.status, 0, `git ${args.join(" ")}: ${r.stderr}`);
  }
}

let tarball = "";

before(() => {
  mkdirSync(join(root, "home"), { recursive: true });
  const src = join(root, "src");
  copySource(src);
  // The pack builds the bundles (prepack) with the checkout's build tools.
  symlinkSync(join(repoRoot, "node_modules"), join(src, "node_modules"));
  const r = npm(["pack", "--pack-destination", root], src);
  const name = r.stdout.trim().split("\n").pop()!;
  tarball = join(root, name);
  assert.equal(name, `rtk-${VERSION}.tgz`);
});

describe("npm pack", () => {
  test("the tarball holds what runs, its licences and README: no tests, benchmarks, sources or snapshots", () => {
    const t = spawnSync("tar", ["-tzvf", tarball], { encoding: "utf8" });
    assert.equal(t.status, 0, t.stderr);
    const rows = t.stdout
      .trim()
      .split("\n")
      .map((l) => l.trim().split(/\s+/));
    const files = rows.map((r) => r[r.length - 1]!.replace(/^package\//, "")).sort();
    assert.deepEqual(files, [
      "LICENSE",
      "README.md",
      "bin/rtk",
      "dist/THIRD-PARTY-LICENSES.txt",
      "dist/build-id",
      "dist/lib.cjs",
      "dist/lib.d.cts",
      "dist/lib.d.ts",
      "dist/lib.mjs",
      "dist/node-sqlite3-wasm.wasm",
      "dist/o200k_base.json.gz",
      "dist/rtk-hot.cjs",
      "dist/rtk-main.cjs",
      "dist/rtk-otel.cjs",
      "dist/rtk-report.cjs",
      "dist/rtk-run.cjs",
      "dist/rtk.cjs",
      "dist/snapshot-build.cjs",
      "package.json",
    ]);
    for (const r of rows) assert.ok(Number(r[2]) < 2_000_000, `no multi-megabyte artefact: ${r.join(" ")}`);
    const pkg = JSON.parse(spawnSync("tar", ["-xzOf", tarball, "package/package.json"], { encoding: "utf8" }).stdout) as Record<string, unknown>;
    assert.equal(pkg["dependencies"], undefined, "everything rtk runs is bundled");
  });
});

describe("npm install -g <tarball>", () => {
  const prefix = join(root, "prefix");
  const bin = join(prefix, "bin", "rtk");
  const env = () => cleanEnv({ PATH: `${join(prefix, "bin")}:${NODE_DIR}:/usr/local/bin:/usr/bin:/bin` });
  before(() => {
    npm(["install", "-g", "--prefix", prefix, "--prefer-offline", tarball], root);
  });

  test("rtk --version", () => {
    const r = spawnSync(bin, ["--version"], { env: env(), encoding: "utf8" });
    assert.equal(r.stdout, `rtk ${VERSION}\n`, r.stderr);
  });

  test('rtk rewrite --host none "git status"', () => {
    const r = spawnSync("rtk", ["rewrite", "--host", "none", "git status"], { env: env(), cwd: root, encoding: "utf8" });
    assert.equal(r.stdout, "rtk git status", r.stderr);
    assert.equal(r.status, 3);
  });

  test("rtk git status in a real repository", () => {
    const repo = join(root, "repo");
    mkdirSync(repo);
    writeFileSync(join(repo, "a.txt"), "a\n");
    gitRepo(repo, env());
    writeFileSync(join(repo, "b.txt"), "b\n");
    const r = spawnSync("rtk", ["git", "status"], { env: env(), cwd: repo, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /b\.txt/);
  });

  test("rtk hook claude answers with the rewrite (rtk is on the hook's PATH)", () => {
    // `ls` in its folder: a command Claude Code runs by itself, so the rewrite comes back allowed.
    const event = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, cwd: root, permission_mode: "default" });
    const r = spawnSync("rtk", ["hook", "claude"], { env: env(), cwd: root, input: event, encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.updatedInput.command, "rtk ls");
    assert.equal(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision, "allow");
  });

  // Last in this group: it uninstalls.
  test("after npm uninstall -g, the hooks rtk init wrote do nothing: exit 0, no output, in every shell hosts run them with", () => {
    const project = join(root, "hooked");
    mkdirSync(project);
    for (const scope of ["--global", "--project"]) {
      const r = spawnSync("rtk", ["init", "--agent", "claude", scope], { env: env(), cwd: project, encoding: "utf8" });
      assert.equal(r.status, 0, r.stderr);
    }
    const commandIn = (file: string): string => (JSON.parse(readFileSync(file, "utf8")) as { hooks: { PreToolUse: { hooks: { command: string }[] }[] } }).hooks.PreToolUse[0]!.hooks[0]!.command;
    const hooks = [commandIn(join(root, "home", ".claude", "settings.json")), commandIn(join(project, ".claude", "settings.json"))];
    const event = JSON.stringify({ hook_event_name: "PreToolUse", tool_name: "Bash", tool_input: { command: "ls" }, cwd: project, permission_mode: "default" });
    // The hooks' PATH: the prefix, node and what the launcher uses, so that no other rtk on the machine answers.
    const tools = join(root, "hook-tools");
    mkdirSync(tools);
    symlinkSync(process.execPath, join(tools, "node"));
    symlinkSync(spawnSync("sh", ["-c", "command -v readlink"], { encoding: "utf8" }).stdout.trim(), join(tools, "readlink"));
    const hookEnv = { ...env(), PATH: `${join(prefix, "bin")}:${tools}` };
    // Codex runs a hook in the user's $SHELL (fish too), Claude Code in sh, Gemini CLI in bash.
    const shells = ["sh", "bash", "zsh", "fish"].map((sh) => spawnSync("sh", ["-c", `command -v ${sh}`], { encoding: "utf8" }).stdout.trim()).filter(Boolean);
    const runAll = () => hooks.flatMap((command) => shells.map((sh) => ({ sh, command, r: spawnSync(sh, ["-c", command], { env: hookEnv, cwd: project, input: event, encoding: "utf8" }) })));
    for (const { sh, command, r } of runAll()) {
      assert.equal(r.status, 0, `${sh} -c ${command}: ${r.stderr}`);
      assert.equal(JSON.parse(r.stdout).hookSpecificOutput.updatedInput.command, "rtk ls", `${sh} -c ${command}`);
    }
    npm(["uninstall", "-g", "--prefix", prefix, "rtk"], root);
    assert.ok(!existsSync(bin), "rtk is gone");
    for (const { sh, command, r } of runAll()) assert.deepEqual({ status: r.status, stdout: r.stdout, stderr: r.stderr }, { status: 0, stdout: "", stderr: "" }, `${sh} -c ${command}`);
    const missing = ["zsh", "fish"].filter((sh) => !shells.some((path) => path.endsWith(`/${sh}`)));
    if (missing.length) console.log(`# skipped shells (not installed): ${missing.join(", ")}`);
  });
});

describe("the tarball in an app: the library", () => {
  const app = join(root, "app");
  before(() => {
    mkdirSync(app);
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "app", version: "1.0.0", private: true }));
    npm(["install", "--prefer-offline", tarball], app);
  });

  test("require('rtk') gives rewrite, explain and parse", () => {
    const code = `const { rewrite, explain, parse } = require("rtk");
const r = rewrite("git status && npm publish", { host: "opencode", cwd: "/" });
console.log(JSON.stringify({ command: r.command, explain: typeof explain, parsed: parse("ls | wc -l").ok }));`;
    const r = spawnSync(process.execPath, ["-e", code], { cwd: app, env: cleanEnv(), encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { command: "rtk git status && npm publish", explain: "function", parsed: true });
  });

  test("import('rtk') gives the same", () => {
    const code = `const { rewrite, explain, parse } = await import("rtk");
console.log(JSON.stringify({ command: rewrite("git status", { host: "opencode", cwd: "/" }).command, explain: typeof explain, parsed: parse("ls").ok }));`;
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", code], { cwd: app, env: cleanEnv(), encoding: "utf8" });
    assert.equal(r.status, 0, r.stderr);
    assert.deepEqual(JSON.parse(r.stdout), { command: "rtk git status", explain: "function", parsed: true });
  });

  test("the types: an ES module and a CommonJS consumer compile with tsc --strict (no skipLibCheck)", () => {
    writeFileSync(
      join(app, "esm.mts"),
      `import { rewrite, explain, parse, type RewriteResult, type ParseResult } from "rtk";
const r: RewriteResult = rewrite("git status", { host: "opencode", cwd: "/" });
const command: string | null = r.command;
const code: 0 | 1 | 2 | 3 = r.exitCode;
const p: ParseResult = parse("ls");
if (p.ok) console.log(p.script.stmts.length);
console.log(command, code, typeof explain);
// @ts-expect-error a host is a string
rewrite("ls", { host: 1 });
`,
    );
    writeFileSync(
      join(app, "cjs.cts"),
      `import rtk = require("rtk");
const r = rtk.rewrite("git status", { cwd: "/" });
const command: string | null = r.command;
console.log(command, rtk.parse("ls").ok, typeof rtk.explain);
`,
    );
    writeFileSync(
      join(app, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, noEmit: true, types: [] }, files: ["esm.mts", "cjs.cts"] }),
    );
    const r = spawnSync(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: app, env: cleanEnv(), encoding: "utf8" });
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
  });

  test("the README's library example compiles and runs as written", () => {
    const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
    const section = readme.slice(readme.indexOf("## Library"));
    const example = /```ts\n([\s\S]*?)```/.exec(section)?.[1];
    assert.ok(example, "a ```ts block under ## Library");
    const dir = join(app, "readme");
    mkdirSync(dir);
    writeFileSync(join(dir, "example.mts"), example + `\nexport const seen = r;\n`);
    writeFileSync(
      join(dir, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, outDir: "out", typeRoots: [join(repoRoot, "node_modules", "@types")], types: ["node"] },
        files: ["example.mts"],
      }),
    );
    const c = spawnSync(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: dir, env: cleanEnv(), encoding: "utf8" });
    assert.equal(c.status, 0, `${c.stdout}${c.stderr}`);
    const r = spawnSync(process.execPath, ["--input-type=module", "-e", `const m = await import("./out/example.mjs"); console.log(JSON.stringify(m.seen.command));`], {
      cwd: dir,
      env: cleanEnv(),
      encoding: "utf8",
    });
    assert.equal(r.status, 0, r.stderr);
    assert.match(r.stdout, /rtk git status/);
  });
});

describe("npx from the tarball", () => {
  test("npx --package <tgz> rtk --version", () => {
    // A cache of its own: npx keeps what it installs there.
    const cache = join(root, "npx-cache");
    const v = npm(["exec", "--yes", "--package", tarball, "--", "rtk", "--version"], root, { npm_config_cache: cache });
    assert.match(v.stdout, new RegExp(`rtk ${VERSION.replace(/\./g, "\\.")}`));
  });
});

describe("npm install -g <fresh clone folder>", () => {
  test("prepare installs the build's dependencies and builds; rtk runs from the linked folder", () => {
    const clone = join(root, "clone");
    copySource(clone);
    assert.ok(!readdirSync(clone).includes("node_modules") && !readdirSync(clone).includes("dist"));
    const prefix = join(root, "prefix-clone");
    npm(["install", "-g", "--prefix", prefix, "--prefer-offline", clone], root);
    const env = cleanEnv({ PATH: `${join(prefix, "bin")}:${NODE_DIR}:/usr/local/bin:/usr/bin:/bin` });
    const v = spawnSync("rtk", ["--version"], { env, encoding: "utf8" });
    assert.equal(v.stdout, `rtk ${VERSION}\n`, v.stderr);
    const r = spawnSync("rtk", ["rewrite", "--host", "none", "git status"], { env, cwd: root, encoding: "utf8" });
    assert.equal(r.stdout, "rtk git status", r.stderr);
  });
});
