// `rtk init` for every host (spec/hosts.md, "`rtk init`"), run through the BUILT
// launcher in a temporary HOME, with a temporary project folder as cwd: fresh
// install, idempotence, neighbouring user hooks, malformed settings, symlinks,
// --dry-run, --uninstall, the backup, rules blocks, the OpenCode plugin, --show.
// Expected files are written from the spec, not from the implementation.
import { activeRegistry, fullRegistry } from "../../src/routing.js";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, readlinkSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, dirname, isAbsolute, join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { ensureBuilt } from "../support/build.js";
import { launch, RTK, type Run } from "../support/launch.js";

/** The launcher as a user's own hook file names it: an absolute path. */
const BIN = realpathSync(RTK);
/** The hook command: the absolute launcher in a user's file; `rtk` on PATH in a project's file, which others clone. */
const CMD = (host: string, scope: "global" | "project" = "global") =>
  scope === "project" ? `command -v rtk >/dev/null 2>&1 && exec rtk hook ${host}; true` : `test -x ${BIN} && exec ${BIN} hook ${host}; true`;
const BEGIN = "<!-- rtk:begin -->";
const END = "<!-- rtk:end -->";

before(() => {
  ensureBuilt();
});

// ---- sandboxes and runs ---------------------------------------------------------------------

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

interface Box {
  home: string;
  project: string;
}

function box(): Box {
  const home = mkdtempSync(join(tmpdir(), "rtk-init-"));
  made.push(home);
  const project = join(home, "src", "app");
  mkdirSync(project, { recursive: true });
  mkdirSync(join(home, ".config"), { recursive: true });
  return { home, project };
}

function put(path: string, text: string | Buffer) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function rtk(b: Box, args: string[], cwd = b.project): Promise<Run> {
  return launch(args, { cwd, env: { PATH: process.env["PATH"] ?? "", HOME: b.home, XDG_CONFIG_HOME: join(b.home, ".config"), RTK_ROUTES: "all" } });
}

const init = (b: Box, host: string, ...flags: string[]) => rtk(b, ["init", "--agent", host, ...flags]);

function ok(r: Run, what: string) {
  assert.equal(r.status, 0, `${what}: exit ${r.status}\nstdout: ${r.stdout}\nstderr: ${r.stderr}`);
}

interface Snap {
  bytes: Buffer;
  mtimeMs: number;
}

function snap(file: string): Snap {
  return { bytes: readFileSync(file), mtimeMs: statSync(file).mtimeMs };
}

function assertUntouched(file: string, before: Snap, what: string) {
  assert.equal(readFileSync(file).toString("utf8"), before.bytes.toString("utf8"), `${what}: the file's bytes changed`);
  assert.ok(readFileSync(file).equals(before.bytes), `${what}: the file's bytes changed`);
  assert.equal(statSync(file).mtimeMs, before.mtimeMs, `${what}: the file was rewritten (mtime changed)`);
}

/** Every file under `dir`, relative, with its bytes. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const p = join(d, name);
      const st = lstatSync(p);
      if (st.isDirectory()) walk(p);
      else out[relative(dir, p)] = st.isSymbolicLink() ? `-> ${readlinkSync(p)}` : readFileSync(p, "utf8");
    }
  };
  walk(dir);
  return out;
}

const json = (file: string): unknown => JSON.parse(readFileSync(file, "utf8").replace(/^\uFEFF/, ""));

/** Says nothing changed (and not that something was installed). */
const NOTHING_CHANGED = /nothing (changed|to do)|no change|unchanged|already (installed|up to date)/i;

/** The file is named in the message, absolute or `~/…`. */
function namesFile(text: string, b: Box, file: string): boolean {
  return text.includes(file) || text.includes("~/" + relative(b.home, file)) || text.includes(relative(b.project, file));
}

// ---- what each host gets, from spec/hosts.md --------------------------------------------------

interface JsonHost {
  host: string;
  /** Settings file per scope (null = the spec names no such scope). */
  file: { global: ((b: Box) => string) | null; project: ((b: Box) => string) | null };
  /** The whole file rtk writes into an empty place. */
  fresh: (cmd: string) => unknown;
  /** Path from the top to the array our entries go into. */
  arrayPath: string[];
  /** Path to the array of our session-start entry, where the host has one (default `hooks.SessionStart`; Kiro's is `arrayPath` itself). */
  sessionPath?: string[];
  /** A user's own entry that may share the array with ours. */
  userEntry: unknown;
  /** Matcher groups: our hook sits in a group's own `hooks` list. */
  grouped: boolean;
}

const claudeGroup = (cmd: string, timeout?: number) => ({ matcher: "Bash", hooks: [{ type: "command", command: cmd, ...(timeout !== undefined ? { timeout } : {}) }] });
/** Claude Code's SessionStart entry: no matcher (every source: startup, resume, clear, compact). */
const claudeStart = (cmd: string) => ({ hooks: [{ type: "command", command: cmd, timeout: 10 }] });

const JSON_HOSTS: JsonHost[] = [
  {
    host: "claude",
    file: { global: (b) => join(b.home, ".claude", "settings.json"), project: (b) => join(b.project, ".claude", "settings.json") },
    // The SessionStart entry adds rtk's context to each session.
    fresh: (cmd) => ({ hooks: { PreToolUse: [claudeGroup(cmd, 10)], SessionStart: [claudeStart(cmd)] } }),
    arrayPath: ["hooks", "PreToolUse"],
    userEntry: { matcher: "Bash", hooks: [{ type: "command", command: "$HOME/.claude/hooks/audit-bash.sh", timeout: 30 }] },
    grouped: true,
  },
  {
    host: "cursor",
    file: { global: (b) => join(b.home, ".cursor", "hooks.json"), project: null },
    fresh: (cmd) => ({ version: 1, hooks: { preToolUse: [{ command: cmd, matcher: "Shell" }] } }),
    arrayPath: ["hooks", "preToolUse"],
    userEntry: { command: "./hooks/audit-shell.sh", matcher: "Shell" },
    grouped: false,
  },
  {
    host: "gemini",
    file: { global: (b) => join(b.home, ".gemini", "settings.json"), project: null },
    fresh: (cmd) => ({
      hooks: {
        BeforeTool: [{ matcher: "run_shell_command", hooks: [{ type: "command", command: cmd, timeout: 10000 }] }],
        SessionStart: [{ hooks: [{ type: "command", command: cmd, timeout: 10000 }] }],
      },
    }),
    arrayPath: ["hooks", "BeforeTool"],
    userEntry: { matcher: "run_shell_command", hooks: [{ type: "command", command: "$HOME/.gemini/hooks/audit.sh", timeout: 5000 }] },
    grouped: true,
  },
  {
    // Copilot CLI's documented file (VS Code reads it too): lowerCamelCase event, `bash`/`powershell`, `timeoutSec`.
    host: "copilot",
    file: { global: (b) => join(b.home, ".copilot", "hooks", "rtk.json"), project: (b) => join(b.project, ".github", "hooks", "rtk.json") },
    // sessionStart (camelCase, as the CLI's other events) adds rtk's context to each session; `powershell` holds the bare call.
    fresh: (cmd) => {
      const entry = { type: "command", bash: cmd, powershell: cmd.replace(/^.* && exec (.+); true$/, "$1"), timeoutSec: 10 };
      return { version: 1, hooks: { preToolUse: [entry], sessionStart: [entry] } };
    },
    arrayPath: ["hooks", "preToolUse"],
    sessionPath: ["hooks", "sessionStart"],
    userEntry: { type: "command", bash: "./scripts/audit.sh", powershell: "./scripts/audit.ps1", timeoutSec: 10 },
    grouped: false,
  },
  {
    host: "codex",
    file: { global: (b) => join(b.home, ".codex", "hooks.json"), project: (b) => join(b.project, ".codex", "hooks.json") },
    fresh: (cmd) => ({ hooks: { PreToolUse: [claudeGroup(cmd)], SessionStart: [{ hooks: [{ type: "command", command: cmd }] }] } }),
    arrayPath: ["hooks", "PreToolUse"],
    userEntry: { matcher: "Bash", hooks: [{ type: "command", command: "python3 ~/.codex/hooks/pre_tool_use.py", statusMessage: "Checking" }] },
    grouped: true,
  },
  {
    host: "kiro",
    file: { global: (b) => join(b.home, ".kiro", "hooks", "rtk.json"), project: (b) => join(b.project, ".kiro", "hooks", "rtk.json") },
    // Kiro CLI's documented hook file: one list, our PreToolUse entry (its matcher a regular expression, the
    // timeout beside the action) and our SessionStart entry, told apart by their trigger.
    fresh: (cmd) => ({
      version: "v1",
      hooks: [
        { name: "rtk", trigger: "PreToolUse", matcher: "execute_bash|executeBash|shell", action: { type: "command", command: cmd }, timeout: 5 },
        { name: "rtk-context", trigger: "SessionStart", action: { type: "command", command: cmd }, timeout: 5 },
      ],
    }),
    arrayPath: ["hooks"],
    sessionPath: ["hooks"],
    userEntry: { name: "lint-on-save", trigger: "PostFileSave", matcher: "\\.ts$", action: { type: "command", command: "npm run lint" } },
    grouped: false,
  },
  {
    // Qwen Code's settings: the matcher a regular expression over the tool id, the timeout in milliseconds.
    host: "qwen",
    file: { global: (b) => join(b.home, ".qwen", "settings.json"), project: (b) => join(b.project, ".qwen", "settings.json") },
    fresh: (cmd) => ({
      hooks: {
        PreToolUse: [{ matcher: "^run_shell_command$", hooks: [{ type: "command", command: cmd, timeout: 10000 }] }],
        SessionStart: [{ hooks: [{ type: "command", command: cmd, timeout: 10000 }] }],
      },
    }),
    arrayPath: ["hooks", "PreToolUse"],
    userEntry: { matcher: "write_file", hooks: [{ type: "command", command: "$QWEN_PROJECT_DIR/.qwen/hooks/security-check.sh", name: "security-check", timeout: 10000 }] },
    grouped: true,
  },
  {
    host: "qoder",
    file: { global: (b) => join(b.home, ".qoder", "settings.json"), project: (b) => join(b.project, ".qoder", "settings.json") },
    fresh: (cmd) => ({ hooks: { PreToolUse: [claudeGroup(cmd, 10)], SessionStart: [claudeStart(cmd)] } }),
    arrayPath: ["hooks", "PreToolUse"],
    userEntry: { matcher: "Bash", hooks: [{ type: "command", command: "~/.qoder/hooks/block-rm.sh" }] },
    grouped: true,
  },
  {
    // Crush's crush.json: one flat entry per hook, its matcher a regular expression over the tool name.
    host: "crush",
    file: { global: (b) => join(b.home, ".config", "crush", "crush.json"), project: (b) => join(b.project, "crush.json") },
    fresh: (cmd) => ({ hooks: { PreToolUse: [{ name: "rtk", matcher: "^bash$", command: cmd, timeout: 10 }] } }),
    arrayPath: ["hooks", "PreToolUse"],
    userEntry: { name: "no-haskell", matcher: "^bash$", command: "/home/dev/.config/crush/hooks/no-haskell.sh" },
    grouped: false,
  },
  {
    host: "continue",
    file: { global: (b) => join(b.home, ".continue", "settings.json"), project: (b) => join(b.project, ".continue", "settings.json") },
    fresh: (cmd) => ({ hooks: { PreToolUse: [{ matcher: "^Bash$", hooks: [{ type: "command", command: cmd, timeout: 10 }] }] } }),
    arrayPath: ["hooks", "PreToolUse"],
    userEntry: { matcher: "^Bash$", hooks: [{ type: "command", command: "python3 .continue/hooks/check_bash.py", statusMessage: "Checking Bash command" }] },
    grouped: true,
  },
];

/** The keys the host's file format has besides our array (the `version` of Cursor, Copilot and Kiro files). */
function skeleton(h: JsonHost): Record<string, unknown> {
  const { [h.arrayPath[0]!]: _, ...rest } = h.fresh("x") as Record<string, unknown>;
  return rest;
}

/** A user's settings file holding `userEntry` in our array, plus other keys, in 4-space style. */
function userSettings(h: JsonHost): string {
  const doc: Record<string, unknown> = { ...skeleton(h) };
  doc["$comment"] = "kept by hand";
  if (h.arrayPath.length === 1) doc[h.arrayPath[0]!] = [h.userEntry];
  else doc[h.arrayPath[0]!] = { [h.arrayPath[1]!]: [h.userEntry], Notification: [{ hooks: [{ type: "command", command: "notify-send done" }] }] };
  doc["theme"] = "dark";
  return JSON.stringify(doc, null, 4) + "\n";
}

/** The same document with `entries` appended to our array. */
function withEntries(text: string, h: JsonHost, entries: unknown[]): unknown {
  const doc = JSON.parse(text);
  let arr = doc;
  for (const k of h.arrayPath) arr = arr[k];
  (arr as unknown[]).push(...entries);
  // A host with a session-start event gets rtk's entry there too, in an array of its own.
  const session = sessionEntries(h);
  if (session) {
    const path = h.sessionPath ?? ["hooks", "SessionStart"];
    let o = doc;
    for (const k of path.slice(0, -1)) o = o[k];
    (o[path[path.length - 1]!] ??= []).push(...session);
  }
  return doc;
}

/** Our session-start entries, where they are in an array of their own (in `arrayPath` itself they are among `ourEntries`). */
function sessionEntries(h: JsonHost): unknown[] | undefined {
  const path = h.sessionPath ?? ["hooks", "SessionStart"];
  if (path.join(".") === h.arrayPath.join(".")) return undefined;
  let v: any = h.fresh(CMD(h.host));
  for (const k of path) v = v?.[k];
  return v;
}

function ourEntries(h: JsonHost): unknown[] {
  let v: any = h.fresh(CMD(h.host));
  for (const k of h.arrayPath) v = v[k];
  return v;
}

// ---- JSON hosts ------------------------------------------------------------------------------------

describe("JSON settings hosts", { concurrency: true }, () => {
  for (const h of JSON_HOSTS) {
    describe(h.host, { concurrency: true }, () => {
      for (const scope of ["global", "project"] as const) {
        const fileOf = h.file[scope];
        if (!fileOf) continue;
        test(`--${scope}: fresh install writes exactly our entry (${scope === "global" ? "the absolute launcher" : "`rtk` on PATH"}); a second run changes nothing; --uninstall removes it`, async () => {
          const b = box();
          const file = fileOf(b);
          const r = await init(b, h.host, `--${scope}`);
          ok(r, "install");
          assert.ok(existsSync(file), `${file} was not written`);
          const written = json(file);
          assert.ok(isAbsolute(BIN));
          assert.ok(readFileSync(file, "utf8").includes(JSON.stringify(CMD(h.host, scope))), `the hook command is ${CMD(h.host, scope)}`);
          const first = snap(file);
          const again = await init(b, h.host, `--${scope}`);
          ok(again, "second install");
          assert.match(again.stdout, NOTHING_CHANGED, `the second run must say nothing changed: ${again.stdout}`);
          assertUntouched(file, first, "second install");
          const u = await init(b, h.host, `--${scope}`, "--uninstall");
          ok(u, "uninstall");
          // The file existed only because rtk created it: removing exactly what init added leaves no file.
          assert.ok(!existsSync(file), `${file} should be gone after uninstalling what init created: ${existsSync(file) ? readFileSync(file, "utf8") : ""}`);
          // Last, so that a shape difference does not hide the checks above.
          assert.deepEqual(written, h.fresh(CMD(h.host, scope)), "the file holds exactly our entry");
          assert.match(u.stdout, /removed/, u.stdout);
          assert.deepEqual(tree(b.home), {}, "nothing is left anywhere: no file, no folder, no backup");
        });
      }

      const scope = h.file.global ? "--global" : "--project";
      const fileOf = (h.file.global ?? h.file.project)!;

      test("install next to a user's own hook: a separate entry, nothing of theirs touched; uninstall restores the file byte for byte; no backup beside it", async () => {
        const b = box();
        const file = fileOf(b);
        const original = userSettings(h);
        put(file, original);
        chmodSync(file, 0o600);
        const inode = statSync(file).ino;
        const r = await init(b, h.host, scope);
        ok(r, "install");
        assert.notEqual(statSync(file).ino, inode, "written atomically: a new file renamed over the old one");
        const installed = readFileSync(file, "utf8");
        const installedDoc = json(file);
        assert.equal(statSync(file).mode & 0o777, 0o600, "the file keeps its permissions");
        assert.deepEqual(readdirSync(dirname(file)), [basename(file)], "no backup and no temporary file beside the user's file");
        assert.ok(installed.startsWith(original.slice(0, 20)));
        const u = await init(b, h.host, scope, "--uninstall");
        ok(u, "uninstall");
        assert.equal(readFileSync(file, "utf8"), original, "uninstall must leave the user's file byte-identical to before the install");
        assert.deepEqual(readdirSync(dirname(file)), [basename(file)], "nothing beside the user's file after uninstall");
        assert.match(u.stdout, /hook removed from /, `the message says the hook went and the file stays: ${u.stdout}`);
        assert.deepEqual(installedDoc, withEntries(original, h, ourEntries(h)), "our entry is appended as its own entry; every other key and entry is kept in order");
      });

      test("malformed settings are left untouched, exit ≠ 0, the file is named on stderr", async () => {
        const b = box();
        const file = fileOf(b);
        put(file, '{\n  "hooks": {\n    "theme": "dark",\n');
        const before = snap(file);
        await new Promise((res) => setTimeout(res, 20));
        const r = await init(b, h.host, scope);
        assert.notEqual(r.status, 0, `install into a broken file must fail: ${r.stdout}`);
        assertUntouched(file, before, "malformed install");
        assert.ok(namesFile(r.stderr, b, file), `stderr must name the file: ${r.stderr}`);
        assert.ok(r.stderr.includes(`hook ${h.host}`), `stderr must say what to add by hand: ${r.stderr}`);
        assert.ok(!existsSync(file + ".rtk-bak"), "no backup of a file that was not changed");
        const u = await init(b, h.host, scope, "--uninstall");
        assert.notEqual(u.status, 0, "uninstall from a broken file must fail too");
        assertUntouched(file, before, "malformed uninstall");
      });

      test("a symlinked settings file stays a symlink after install and uninstall; the target gets the change", async () => {
        const b = box();
        const file = fileOf(b);
        const target = join(b.home, "dotfiles", h.host, "settings.json");
        const doc = { ...skeleton(h), $comment: "managed in ~/dotfiles" };
        const original = JSON.stringify(doc, null, 2) + "\n";
        put(target, original);
        mkdirSync(dirname(file), { recursive: true });
        symlinkSync(relative(dirname(file), target), file);
        const link = readlinkSync(file);
        ok(await init(b, h.host, scope), "install");
        assert.ok(lstatSync(file).isSymbolicLink(), "still a symlink after install");
        assert.equal(readlinkSync(file), link);
        const installedDoc = json(target);
        assert.ok(readFileSync(target, "utf8").includes(JSON.stringify(CMD(h.host))), "the target gets our entry");
        ok(await init(b, h.host, scope, "--uninstall"), "uninstall");
        assert.ok(lstatSync(file).isSymbolicLink(), "still a symlink after uninstall");
        assert.equal(readlinkSync(file), link);
        assert.equal(readFileSync(target, "utf8"), original, "the target is back to its bytes");
        assert.deepEqual(installedDoc, { ...(h.fresh(CMD(h.host)) as object), ...doc }, "the target holds our entry and the user's key");
      });

      test("--dry-run writes nothing and prints a unified diff that makes the change", async () => {
        const b = box();
        const file = fileOf(b);
        const original = userSettings(h);
        put(file, original);
        const before = snap(file);
        const treeBefore = tree(b.home);
        const r = await init(b, h.host, scope, "--dry-run");
        ok(r, "dry run");
        assertUntouched(file, before, "dry run");
        assert.deepEqual(tree(b.home), treeBefore, "a dry run creates no file (no backup, no temp file)");
        assert.match(r.stdout, /^--- .+\n\+\+\+ .+\n@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m, `a unified diff: ${r.stdout}`);
        assert.ok(
          r.stdout.split("\n").some((l) => l.startsWith("+") && l.includes(CMD(h.host))),
          "the diff adds our command",
        );
        // The diff applies to the file and gives what a real install writes.
        const scratch = mkdtempSync(join(tmpdir(), "rtk-init-patch-"));
        made.push(scratch);
        writeFileSync(join(scratch, "f"), original);
        const p = spawnSync("patch", ["-s", "-o", join(scratch, "out"), join(scratch, "f")], { input: r.stdout, encoding: "utf8" });
        assert.equal(p.status, 0, `patch could not apply the diff: ${p.stdout}${p.stderr}`);
        ok(await init(b, h.host, scope), "real install");
        assert.equal(readFileSync(join(scratch, "out"), "utf8"), readFileSync(file, "utf8"), "the dry-run diff is the exact change");
      });

      test("--dry-run of a fresh install creates nothing", async () => {
        const b = box();
        const treeBefore = tree(b.home);
        const r = await init(b, h.host, scope, "--dry-run");
        ok(r, "dry run");
        assert.deepEqual(tree(b.home), treeBefore);
        assert.ok(!existsSync(dirname(fileOf(b))) || readdirSync(dirname(fileOf(b))).length === 0);
        assert.match(r.stdout, /^\+\+\+ /m);
        assert.ok(r.stdout.includes(CMD(h.host)));
      });

      test("--uninstall when rtk is not installed changes nothing", async () => {
        const b = box();
        const file = fileOf(b);
        const none = await init(b, h.host, scope, "--uninstall");
        ok(none, "uninstall without a file");
        assert.ok(!existsSync(file), "no file is created");
        assert.deepEqual(tree(b.home), {}, "nothing is created anywhere");
        put(file, userSettings(h));
        const before = snap(file);
        await new Promise((res) => setTimeout(res, 20));
        const r = await init(b, h.host, scope, "--uninstall");
        ok(r, "uninstall from a file without our entry");
        assertUntouched(file, before, "uninstall when absent");
        assert.ok(!existsSync(file + ".rtk-bak"), "no backup when nothing changes");
      });

      if (h.grouped) {
        const userHook = `{"type": "command", "command": "/usr/local/bin/audit-bash", "timeout": 15}`;
        const ourHook = `{"type": "command", "command": ${JSON.stringify(CMD(h.host))}${h.host === "codex" ? "" : `, "timeout": ${h.host === "gemini" ? 10000 : 10}`}}`;
        const matcher = (h.userEntry as { matcher: string }).matcher;
        // With our session-start entry where the host has one: the install is then whole.
        const session = sessionEntries(h);
        const groupFile = (hooks: string[], withSession = false) =>
          [
            "{",
            `  "hooks": {`,
            `    "${h.arrayPath[1]}": [`,
            "      {",
            `        "matcher": "${matcher}",`,
            `        "hooks": [`,
            ...hooks.map((x, i) => `          ${x}${i < hooks.length - 1 ? "," : ""}`),
            "        ]",
            "      }",
            `    ]${withSession && session ? `,\n    "SessionStart": ${JSON.stringify(session)}` : ""}`,
            "  }",
            "}",
            "",
          ].join("\n");
        for (const order of ["user first", "ours first"] as const) {
          test(`our hook in the SAME matcher group as the user's (${order}): detected as installed; uninstall removes only ours`, async () => {
            const b = box();
            const file = fileOf(b);
            const text = groupFile(order === "user first" ? [userHook, ourHook] : [ourHook, userHook], true);
            put(file, text);
            const before = snap(file);
            await new Promise((res) => setTimeout(res, 20));
            const r = await init(b, h.host, scope);
            ok(r, "install over an existing entry");
            assert.match(r.stdout, NOTHING_CHANGED);
            assertUntouched(file, before, "install when ours is already in the user's group");
            ok(await init(b, h.host, scope, "--uninstall"), "uninstall");
            assert.equal(readFileSync(file, "utf8"), groupFile([userHook]), "only our hook goes; the user's hook and group stay byte for byte");
          });
        }
      }
    });
  }
});

describe("our entry is recognised by parsing the command", { concurrency: true }, () => {
  test("commands that merely contain `rtk hook claude` are the user's, not ours", async () => {
    const b = box();
    const file = join(b.home, ".claude", "settings.json");
    const original =
      JSON.stringify(
        {
          hooks: {
            PreToolUse: [
              { matcher: "Bash", hooks: [{ type: "command", command: "echo rtk hook claude >> ~/hooks.log" }] },
              { matcher: "Bash", hooks: [{ type: "command", command: "/opt/rtk-audit/bin/rtk-audit hook claude" }] },
              { matcher: "Bash", hooks: [{ type: "command", command: "/usr/local/bin/rtk hook codex" }] },
              { matcher: "Bash", hooks: [{ type: "command", command: "test -x /opt/a/rtk && exec /opt/b/rtk hook claude; true" }] },
              { matcher: "Bash", hooks: [{ type: "command", command: "command -v rtk >/dev/null 2>&1 && exec /opt/b/rtk hook claude; true" }] },
            ],
          },
        },
        null,
        2,
      ) + "\n";
    put(file, original);
    ok(await init(b, "claude", "--global"), "install");
    const doc = json(file) as any;
    assert.equal(doc.hooks.PreToolUse.length, 6, "ours is added next to the five look-alikes");
    assert.deepEqual(doc.hooks.PreToolUse[5], claudeGroup(CMD("claude"), 10));
    ok(await init(b, "claude", "--global", "--uninstall"), "uninstall");
    assert.equal(readFileSync(file, "utf8"), original, "the look-alikes are not removed");
  });

  test("our entry with an old launcher path is updated in place, not duplicated", async () => {
    const b = box();
    const file = join(b.home, ".claude", "settings.json");
    put(file, JSON.stringify({ hooks: { PreToolUse: [claudeGroup("/old/place/node_modules/.bin/rtk hook claude", 10)] } }, null, 2) + "\n");
    const r = await init(b, "claude", "--global");
    ok(r, "install");
    assert.deepEqual(json(file), { hooks: { PreToolUse: [claudeGroup(CMD("claude"), 10)], SessionStart: [claudeStart(CMD("claude"))] } });
  });

  test("a BOM-prefixed or whitespace-only settings file is tolerated", async () => {
    const b = box();
    const file = join(b.home, ".claude", "settings.json");
    put(file, "\uFEFF" + JSON.stringify({ model: "opus" }, null, 2) + "\n");
    ok(await init(b, "claude", "--global"), "install into a BOM file");
    assert.deepEqual(json(file), { model: "opus", hooks: { PreToolUse: [claudeGroup(CMD("claude"), 10)], SessionStart: [claudeStart(CMD("claude"))] } });
    const c = box();
    const file2 = join(c.home, ".claude", "settings.json");
    put(file2, "  \n\n");
    ok(await init(c, "claude", "--global"), "install into a blank file");
    assert.deepEqual(json(file2), { hooks: { PreToolUse: [claudeGroup(CMD("claude"), 10)], SessionStart: [claudeStart(CMD("claude"))] } });
  });

  test("--project from a subfolder writes into the project that has `.claude/`", async () => {
    const b = box();
    mkdirSync(join(b.project, ".claude"), { recursive: true });
    const sub = join(b.project, "packages", "web");
    mkdirSync(sub, { recursive: true });
    const r = await rtk(b, ["init", "--agent", "claude", "--project"], sub);
    ok(r, "install");
    assert.deepEqual(json(join(b.project, ".claude", "settings.json")), { hooks: { PreToolUse: [claudeGroup(CMD("claude", "project"), 10)], SessionStart: [claudeStart(CMD("claude", "project"))] } });
    assert.ok(!existsSync(join(sub, ".claude")));
  });

  test("--project in a git repository under a HOME that has ~/.claude/ writes the project's file, never the user's", async () => {
    const b = box();
    const user = join(b.home, ".claude", "settings.json");
    put(user, JSON.stringify({ model: "opus" }, null, 2) + "\n");
    const before = snap(user);
    mkdirSync(join(b.project, ".git"));
    await new Promise((res) => setTimeout(res, 20));
    const r = await init(b, "claude", "--project");
    ok(r, "install");
    // SPEC-SILENT: project root = nearest ancestor with `.claude/`, else
    // the git top level. Taken literally that walks up to HOME and installs into the user's global file;
    // a demanding user expects --project to stay in the project (the git top level).
    assertUntouched(user, before, "the user's ~/.claude/settings.json");
    assert.deepEqual(json(join(b.project, ".claude", "settings.json")), { hooks: { PreToolUse: [claudeGroup(CMD("claude", "project"), 10)], SessionStart: [claudeStart(CMD("claude", "project"))] } });
  });

  test("codex: init says the hooks feature must be on in config.toml", async () => {
    const b = box();
    const r = await init(b, "codex", "--global");
    ok(r, "install");
    assert.match(r.stdout + r.stderr, /config\.toml/);
  });
});

// ---- rules-only hosts ----------------------------------------------------------------------------------

const RULES_HOSTS = [
  { host: "windsurf", file: ".windsurfrules" },
  { host: "cline", file: ".clinerules" },
  { host: "agents", file: "AGENTS.md" },
  { host: "trae", file: ".trae/rules/project_rules.md" },
];

function blockOf(text: string): string {
  const s = text.indexOf(BEGIN);
  const e = text.indexOf(END);
  assert.ok(s >= 0 && e > s, `a block delimited by ${BEGIN} / ${END}: ${text}`);
  return text.slice(s + BEGIN.length, e);
}

describe("rules-only hosts", { concurrency: true }, () => {
  for (const { host, file: name } of RULES_HOSTS) {
    describe(host, { concurrency: true }, () => {
      test("appends a delimited block to an existing instructions file; uninstall removes it exactly", async () => {
        const b = box();
        const file = join(b.project, name);
        const original = "# House rules\n\n- Use pnpm, not npm.\n- Run `pnpm test` before committing.\n";
        put(file, original);
        ok(await init(b, host, "--project"), "install");
        const text = readFileSync(file, "utf8");
        assert.ok(text.startsWith(original), "the user's text stays first, untouched");
        const rest = text.slice(original.length);
        assert.match(rest, new RegExp(`^\\n?${BEGIN}\\n[\\s\\S]*\\n${END}\\n?$`), `one block appended after the user's text: ${JSON.stringify(rest)}`);
        const body = blockOf(text);
        assert.ok(body.trim().split("\n").length < 15, "the text is short (under 15 lines)");
        assert.match(body, /Prefix these commands with `rtk`[\s\S]*`git` \(status,/);
        assert.match(body, /sudo/, "says when not to use rtk (sudo)");
        assert.match(body, /pipe|\| ?\w|file/i, "says when not to use rtk (pipes, files)");
        assert.ok(!existsSync(file + ".rtk-bak"), "no backup beside the user's file");
        const first = snap(file);
        const again = await init(b, host, "--project");
        ok(again, "second install");
        assert.match(again.stdout, NOTHING_CHANGED);
        assertUntouched(file, first, "second install");
        ok(await init(b, host, "--project", "--uninstall"), "uninstall");
        assert.equal(readFileSync(file, "utf8"), original, "byte-identical after uninstall");
      });

      test("fresh: creates the file with the block; uninstall removes the file it created", async () => {
        const b = box();
        const file = join(b.project, name);
        ok(await init(b, host, "--project"), "install");
        blockOf(readFileSync(file, "utf8"));
        ok(await init(b, host, "--project", "--uninstall"), "uninstall");
        assert.ok(!existsSync(file), "the file rtk created is gone");
      });

      test("--dry-run writes nothing and prints a diff; --uninstall without a block changes nothing", async () => {
        const b = box();
        const file = join(b.project, name);
        put(file, "# Notes\n");
        const before = snap(file);
        const r = await init(b, host, "--project", "--dry-run");
        ok(r, "dry run");
        assertUntouched(file, before, "dry run");
        assert.match(r.stdout, /^\+<!-- rtk:begin -->$/m);
        assert.deepEqual(readdirSync(b.project), [name.split("/")[0]]);
        const u = await init(b, host, "--project", "--uninstall");
        ok(u, "uninstall");
        assertUntouched(file, before, "uninstall without a block");
      });
    });
  }

  test("agents: a file without a final newline is byte-identical after install + uninstall", async () => {
    const b = box();
    const file = join(b.project, "AGENTS.md");
    const original = "# Agents\n\nBe brief.";
    put(file, original);
    ok(await init(b, "agents", "--project"), "install");
    ok(await init(b, "agents", "--project", "--uninstall"), "uninstall");
    assert.equal(readFileSync(file, "utf8"), original);
  });

  test("agents: the user's text after the block survives uninstall", async () => {
    const b = box();
    const file = join(b.project, "AGENTS.md");
    put(file, "# Agents\n");
    ok(await init(b, "agents", "--project"), "install");
    const withBlock = readFileSync(file, "utf8");
    writeFileSync(file, withBlock + "\n## Added later by the user\n");
    ok(await init(b, "agents", "--project", "--uninstall"), "uninstall");
    const text = readFileSync(file, "utf8");
    assert.ok(!text.includes(BEGIN) && !text.includes(END));
    assert.ok(text.startsWith("# Agents\n") && text.includes("## Added later by the user\n"), text);
  });

  test("agents: from a subfolder of a git repository, the block goes to the repository's top", async () => {
    const b = box();
    mkdirSync(join(b.project, ".git"));
    const sub = join(b.project, "pkg", "core");
    mkdirSync(sub, { recursive: true });
    ok(await rtk(b, ["init", "--agent", "agents", "--project"], sub), "install");
    assert.ok(existsSync(join(b.project, "AGENTS.md")));
    assert.ok(!existsSync(join(sub, "AGENTS.md")));
  });
});

// ---- OpenCode --------------------------------------------------------------------------------------------

describe("opencode plugin", { concurrency: true }, () => {
  const pluginFile = (b: Box) => join(b.home, ".config", "opencode", "plugins", "rtk.ts");

  test("writes the plugin file, a second run changes nothing, uninstall removes it", async () => {
    const b = box();
    const file = pluginFile(b);
    ok(await init(b, "opencode", "--global"), "install");
    assert.ok(existsSync(file));
    const text = readFileSync(file, "utf8");
    assert.match(text, /tool\.execute\.before/);
    assert.ok(text.includes(JSON.stringify(BIN)), "the fallback names the absolute launcher");
    const first = snap(file);
    const again = await init(b, "opencode", "--global");
    ok(again, "second install");
    assert.match(again.stdout, NOTHING_CHANGED);
    assertUntouched(file, first, "second install");
    ok(await init(b, "opencode", "--global", "--uninstall"), "uninstall");
    assert.ok(!existsSync(file), "the plugin file is removed");
  });

  test("a pre-existing rtk.ts that is not rtk's is left untouched, with an error", async () => {
    const b = box();
    const file = pluginFile(b);
    put(file, "export const Mine = async () => ({});\n");
    const before = snap(file);
    await new Promise((res) => setTimeout(res, 20));
    const r = await init(b, "opencode", "--global");
    assert.notEqual(r.status, 0, "installing over someone else's rtk.ts must fail");
    assert.ok(namesFile(r.stderr, b, file), `the error names the file: ${r.stderr}`);
    assertUntouched(file, before, "foreign plugin install");
    const u = await init(b, "opencode", "--global", "--uninstall");
    assertUntouched(file, before, "foreign plugin uninstall");
    assert.ok(u.status === 0 || u.stderr.length > 0);
  });

  test("--dry-run writes nothing", async () => {
    const b = box();
    const r = await init(b, "opencode", "--global", "--dry-run");
    ok(r, "dry run");
    assert.ok(!existsSync(pluginFile(b)));
    assert.match(r.stdout, /^\+\+\+ /m);
  });
});

// ---- --show ------------------------------------------------------------------------------------------------

test("rtk init --show lists every host with its tier, where it would write and whether it is installed", async () => {
  const b = box();
  ok(await init(b, "claude", "--global"), "install claude");
  const r = await rtk(b, ["init", "--show"]);
  ok(r, "show");
  const TIERS: Record<string, string> = {
    claude: "hook that replaces",
    cursor: "hook that replaces",
    gemini: "hook that replaces",
    copilot: "hook that replaces",
    codex: "hook that replaces",
    kiro: "gate only",
    opencode: "plugin",
    pi: "plugin",
    omp: "plugin",
    factory: "hook that replaces",
    devin: "hook that replaces",
    kimi: "gate only",
    vibe: "hook that replaces",
    qwen: "gate only",
    qoder: "gate only",
    crush: "hook that replaces",
    continue: "hook that replaces",
    goose: "gate only",
    openhands: "gate only",
    windsurf: "rules only",
    cline: "rules only",
    roo: "rules only",
    kilo: "rules only",
    trae: "rules only",
    zed: "rules only",
    antigravity: "rules only",
    agents: "rules only",
  };
  const listed = r.stdout.split("\n").filter((l) => /\(rtk init --agent [\w-]+\): /.test(l));
  assert.ok(listed.length >= 20, `at least 20 hosts in --show, got ${listed.length}`);
  assert.equal(listed.length, Object.keys(TIERS).length, `every host listed has its tier checked here: ${listed.join("\n")}`);
  for (const [host, tier] of Object.entries(TIERS)) {
    const header = r.stdout.split("\n").find((l) => l.includes(`--agent ${host})`));
    assert.ok(header, `--show must list ${host}: ${r.stdout}`);
    assert.ok(header.endsWith(tier), `${host}'s tier is ${tier}: ${header}`);
  }
  const claude = r.stdout.split("\n").filter((l) => /claude/i.test(l));
  assert.ok(
    claude.some((l) => /\binstalled\b/.test(l) && !/not installed/.test(l) && l.includes("~/.claude/settings.json")),
    `claude shows as installed, with its file: ${claude.join("\n")}`,
  );
  const cursor = r.stdout.split("\n").filter((l) => /cursor/i.test(l));
  assert.ok(
    cursor.every((l) => !/\binstalled\b/.test(l) || /not installed/.test(l)),
    "cursor is not installed",
  );
  assert.ok(
    cursor.some((l) => l.includes("~/.cursor/hooks.json")),
    "where cursor would write",
  );
});

describe("as a user meets init and uninstall", { concurrency: true }, () => {
  test("openhands: a .openhands/hooks.json in Claude Code's shape, or naming `PreToolUse`, is left untouched with what to change; one with snake_case events takes rtk's entry beside them", async () => {
    const b = box();
    const file = join(b.project, ".openhands", "hooks.json");
    const stop = [{ matcher: "*", hooks: [{ command: ".openhands/hooks/on_stop.sh", timeout: 120 }] }];
    for (const [shape, doc, why] of [
      ["the `hooks` wrapper", { hooks: { Stop: stop } }, /inside `hooks` \(Claude Code's shape\), where OpenHands ignores a `pre_tool_use` beside them/],
      ["PascalCase events", { PreToolUse: stop, Stop: stop }, /names the event `PreToolUse`, and OpenHands refuses a file that names one event twice: rename it `pre_tool_use`/],
    ] as const) {
      put(file, JSON.stringify(doc, null, 2) + "\n");
      const before = snap(file);
      const r = await init(b, "openhands");
      assert.notEqual(r.status, 0, `${shape}: ${r.stdout}`);
      assert.match(r.stderr, why, shape);
      assert.match(r.stderr, /it was left untouched/, shape);
      assertUntouched(file, before, shape);
    }
    put(file, JSON.stringify({ stop }, null, 2) + "\n");
    ok(await init(b, "openhands"), "snake_case events");
    assert.deepEqual(json(file), { stop, pre_tool_use: [{ matcher: "terminal", hooks: [{ type: "command", command: CMD("openhands", "project"), timeout: 10 }] }] });
  });
  test("cline: `.clinerules/` is a folder of rules → rtk's block is a file of its own inside it, removed on uninstall", async () => {
    const b = box();
    put(join(b.project, ".clinerules", "style.md"), "# Style\n\nTabs.\n");
    const r = await init(b, "cline");
    ok(r, "install");
    const mine = join(b.project, ".clinerules", "rtk.md");
    assert.ok(readFileSync(mine, "utf8").includes(BEGIN));
    assert.equal(readFileSync(join(b.project, ".clinerules", "style.md"), "utf8"), "# Style\n\nTabs.\n");
    const u = await init(b, "cline", "--uninstall");
    ok(u, "uninstall");
    assert.deepEqual(readdirSync(join(b.project, ".clinerules")), ["style.md"]);
    assert.match(u.stdout, /rules block removed \(.*rtk\.md deleted: rtk had created it\)/, u.stdout);
  });

  test("messages say what was done: the hook went from a file that stays", async () => {
    const b = box();
    const file = join(b.home, ".claude", "settings.json");
    put(file, '{"model": "opus"}\n');
    const i = await init(b, "claude");
    ok(i, "install");
    assert.match(i.stdout, /hook installed in ~\/\.claude\/settings\.json/, i.stdout);
    const u = await init(b, "claude", "--uninstall");
    ok(u, "uninstall");
    assert.match(u.stdout, /hook removed from ~\/\.claude\/settings\.json/, u.stdout);
    assert.doesNotMatch(u.stdout, /deleted/);
    assert.equal(readFileSync(file, "utf8"), '{"model": "opus"}\n');
  });

  test("every host defaults to its global install unless it only has a project one", async () => {
    const b = box();
    ok(await init(b, "copilot"), "copilot");
    assert.ok(existsSync(join(b.home, ".copilot", "hooks", "rtk.json")), "Copilot has a user-level hook folder: global by default");
    ok(await init(b, "agents"), "agents");
    assert.ok(existsSync(join(b.project, "AGENTS.md")), "AGENTS.md only exists in a project");
  });

  test("the rules block names only routes that have a filter", async () => {
    const b = box();
    ok(await init(b, "agents"), "install");
    const body = blockOf(readFileSync(join(b.project, "AGENTS.md"), "utf8"));
    // A route whose filter is not built would have the agent prefix a tool rtk only passes
    // through; this env even routes those (RTK_ROUTES=all), and the block still leaves them out.
    const active = activeRegistry();
    const unfiltered = [...fullRegistry().byTool.keys()].filter((t) => !active.byTool.has(t));
    for (const tool of unfiltered) assert.ok(!body.includes(`\`${tool}\``), `${tool} has no filter, yet the block names it`);
    for (const tool of active.byTool.keys()) assert.ok(body.includes(`\`${tool}\``), `${tool} has a filter, yet the block leaves it out`);
    assert.match(body, /`git` \(status, log, diff/);
  });
});
