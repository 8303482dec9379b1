// Hosts whose hooks live in a TOML file (Kimi Code's config.toml): rtk's
// `[[hooks]]` tables go at the end between comment markers, the result still
// parses, a file that does not parse (or that the tables would break) is left
// untouched with an error, and the installed command answers the host's events.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { parse as parseToml } from "smol-toml";
import { ensureBuilt } from "../support/build.js";
import { launch, RTK } from "../support/launch.js";

before(() => ensureBuilt());

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

function box() {
  const home = mkdtempSync(join(tmpdir(), "rtk-toml-"));
  made.push(home);
  const project = join(home, "src", "app");
  mkdirSync(join(project, ".git"), { recursive: true });
  const env = { PATH: process.env["PATH"] ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: join(home, ".data") };
  return { home, project, env, file: join(home, ".kimi-code", "config.toml") };
}

function put(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

const USER = 'default_model = "kimi-k2"\n\n[loop_control]\nmax_steps_per_turn = 100\n';

describe("kimi: hooks in config.toml", { concurrency: true }, () => {
  test("the install appends rtk's [[hooks]] table after the user's settings; the file still parses and keeps them", async () => {
    const b = box();
    put(b.file, USER);
    const r = await launch(["init", "--agent", "kimi"], { cwd: b.project, env: b.env });
    assert.equal(r.status, 0, r.stdout + r.stderr);
    const text = readFileSync(b.file, "utf8");
    assert.ok(text.startsWith(USER), text);
    const doc = parseToml(text) as { default_model: string; loop_control: { max_steps_per_turn: number }; hooks: Record<string, unknown>[] };
    assert.equal(doc.default_model, "kimi-k2");
    assert.equal(doc.loop_control.max_steps_per_turn, 100);
    assert.equal(doc.hooks.length, 1);
    const hook = doc.hooks[0]!;
    // Kimi rejects a [[hooks]] table with fields it does not document.
    assert.deepEqual(Object.keys(hook).sort(), ["command", "event", "matcher", "timeout"]);
    assert.equal(hook["event"], "PreToolUse");
    assert.match(String(hook["command"]), /\/rtk hook kimi; true$/);

    // The installed command, run as Kimi runs it, suggests the rtk form (exit 2, stderr to the model).
    const event = { hook_event_name: "PreToolUse", session_id: "s", cwd: b.project, tool_name: "Bash", tool_input: { command: "git status" }, tool_call_id: "t" };
    const run = spawnSync("/bin/sh", ["-c", String(hook["command"])], { input: JSON.stringify(event), env: { ...b.env, RTK_ROUTES: "all" }, cwd: b.project, encoding: "utf8" });
    assert.equal(run.status, 2, run.stderr);
    assert.equal(run.stdout, "");
    assert.match(run.stderr, /run `rtk git status` instead/);

    const show = await launch(["init", "--show"], { cwd: b.project, env: b.env });
    const line = show.stdout.split("\n").find((l) => l.includes("--agent kimi)"));
    assert.ok(line?.endsWith("gate only"), show.stdout);
    assert.ok(
      show.stdout.split("\n").some((l) => l.includes("~/.kimi-code/config.toml") && /\binstalled\b/.test(l) && !/not installed/.test(l)),
      show.stdout,
    );

    // doctor finds the tables, pipes a sample event through their command and runs the suggested form.
    const doc2 = await launch(["doctor", "--json"], { cwd: b.project, env: { ...b.env, PATH: `${dirname(RTK)}:${b.env.PATH}` } });
    const kimi = (JSON.parse(doc2.stdout).hosts as { host: string; checks: { name: string; ok: boolean }[] }[]).find((h) => h.host === "kimi");
    assert.ok(kimi, doc2.stdout);
    for (const name of ["registered", "self-test", "rewritten command"])
      assert.ok(
        kimi.checks.some((c) => c.name === name && c.ok),
        `${name}: ${JSON.stringify(kimi.checks)}`,
      );

    const u = await launch(["init", "--agent", "kimi", "--uninstall"], { cwd: b.project, env: b.env });
    assert.equal(u.status, 0, u.stdout + u.stderr);
    assert.equal(readFileSync(b.file, "utf8"), USER);
  });

  for (const [what, text] of [
    ["a file that is not TOML", 'default_model = "kimi-k2\n[loop_control\n'],
    ["an inline `hooks` array, which [[hooks]] tables would redefine", 'hooks = []\ndefault_model = "kimi-k2"\n'],
  ] as const) {
    test(`${what}: left untouched, exit ≠ 0, stderr names the file and what to add by hand`, async () => {
      const b = box();
      put(b.file, text);
      const r = await launch(["init", "--agent", "kimi"], { cwd: b.project, env: b.env });
      assert.notEqual(r.status, 0, r.stdout);
      assert.equal(readFileSync(b.file, "utf8"), text);
      assert.match(r.stderr, /config\.toml/);
      assert.match(r.stderr, /\[\[hooks\]\][\s\S]*hook kimi/);
    });
  }
});
