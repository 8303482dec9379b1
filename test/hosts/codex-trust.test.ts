// Codex runs a hook only once its user has trusted it (`/hooks` in Codex's
// TUI), and skips it silently until then, and again after it changes: `rtk
// doctor` reads that trust and fails while Codex would skip rtk's hook. The
// hashes below are Codex 0.171's own (its app server's `hooks/list`);
// test/hosts-real/codex.real.ts compares rtk's against the running Codex.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { after, before, describe, test } from "node:test";
import { codexHookHash, codexHookTrust } from "../../src/hosts/codex-trust.js";
import { ensureBuilt } from "../support/build.js";
import { launchSync, loginProfile } from "../support/launch.js";

before(() => ensureBuilt());

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

describe("the hash Codex keeps a hook's trust by", () => {
  test("as Codex 0.171 computes it (its `hooks/list`'s currentHash)", () => {
    assert.equal(codexHookHash("Bash", { type: "command", command: "/work/wt-codex/bin/rtk hook codex" }), "sha256:1e08ba34772fe6754bb2e1f80e50634fb9ba994fe7f4ac81f4cce6a25b1722f6");
    assert.equal(codexHookHash("Bash", { type: "command", command: "/tmp/cx/dumphook.sh" }), "sha256:dbd8a1c8c4ca533b222a40331cfe96899e24512e5cc7bf6048491499d525b098");
  });
  test("the default timeout is explicit in it: 600 and no timeout hash alike; another timeout, matcher or command does not", () => {
    const base = codexHookHash("Bash", { type: "command", command: "rtk hook codex" });
    assert.equal(codexHookHash("Bash", { type: "command", command: "rtk hook codex", timeout: 600 }), base);
    assert.notEqual(codexHookHash("Bash", { type: "command", command: "rtk hook codex", timeout: 10 }), base);
    assert.notEqual(codexHookHash("^Bash$", { type: "command", command: "rtk hook codex" }), base);
    assert.notEqual(codexHookHash("Bash", { type: "command", command: "/x/rtk hook codex" }), base);
  });
});

interface Box {
  home: string;
  project: string;
  env: Record<string, string>;
  hooks: string;
  config: string;
}

function box(): Box {
  const home = mkdtempSync(join(tmpdir(), "rtk-trust-"));
  made.push(home);
  const project = join(home, "work", "app");
  mkdirSync(project, { recursive: true });
  loginProfile(home);
  const env = { PATH: process.env["PATH"] ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_CACHE_HOME: join(home, ".cache"), XDG_DATA_HOME: join(home, ".local", "share") };
  return { home, project, env, hooks: join(home, ".codex", "hooks.json"), config: join(home, ".codex", "config.toml") };
}

function put(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

function trustCheck(b: Box): { ok: boolean; detail: string; fix?: string } {
  const r = launchSync(["doctor", "--json"], { cwd: b.project, env: b.env });
  const checks = JSON.parse(r.stdout).hosts.find((h: { host: string }) => h.host === "codex").checks as { name: string; ok: boolean; detail: string; fix?: string }[];
  return checks.find((c) => c.name === "codex trust")!;
}

/** Trust as Codex's `/hooks` review records it: the hook's current hash under its key. */
function trust(b: Box, extra = ""): void {
  const [t] = codexHookTrust(b.hooks, b.env);
  put(b.config, `model = "gpt-5.5"\n\n[hooks.state."${t!.key}"]\ntrusted_hash = "${t!.hash}"\n${extra}`);
}

describe("rtk doctor: Codex's trust of rtk's hook", () => {
  test("installed, not yet trusted: FAIL, the fix names /hooks", () => {
    const b = box();
    assert.equal(launchSync(["init", "--agent", "codex"], { cwd: b.project, env: b.env }).status, 0);
    const c = trustCheck(b);
    assert.equal(c.ok, false);
    assert.match(c.detail, /Codex skips rtk's hook until you trust it/);
    assert.match(c.fix ?? "", /\/hooks/);
  });

  test("trusted: ok; changed since (another timeout): FAIL again; disabled in /hooks: FAIL", () => {
    const b = box();
    assert.equal(launchSync(["init", "--agent", "codex"], { cwd: b.project, env: b.env }).status, 0);
    trust(b);
    assert.equal(trustCheck(b).ok, true, trustCheck(b).detail);
    const doc = JSON.parse(readFileSync(b.hooks, "utf8"));
    doc.hooks.PreToolUse[0].hooks[0].timeout = 30;
    put(b.hooks, JSON.stringify(doc));
    const changed = trustCheck(b);
    assert.equal(changed.ok, false);
    assert.match(changed.detail, /changed since you trusted it/);
    trust(b, "enabled = false\n");
    const disabled = trustCheck(b);
    assert.equal(disabled.ok, false);
    assert.match(disabled.detail, /disabled/);
  });

  test("the key counts the hook's place: another group before rtk's moves it to group 1", () => {
    const b = box();
    put(b.hooks, JSON.stringify({ hooks: { PreToolUse: [{ matcher: "Edit", hooks: [{ type: "command", command: "/bin/true" }] }] } }));
    assert.equal(launchSync(["init", "--agent", "codex"], { cwd: b.project, env: b.env }).status, 0);
    const [t] = codexHookTrust(b.hooks, b.env);
    assert.equal(t!.key, `${b.hooks}:pre_tool_use:1:0`);
  });
});

describe("rtk doctor: what Codex's sandbox leaves of rtk", () => {
  const sandboxCheck = (b: Box) => {
    const r = launchSync(["doctor", "--json"], { cwd: b.project, env: b.env });
    return (JSON.parse(r.stdout).hosts.find((h: { host: string }) => h.host === "codex").checks as { name: string; ok: boolean; detail: string; fix?: string }[]).find(
      (c) => c.name === "codex sandbox",
    )!;
  };
  test("Codex's default sandbox: degraded, not failed; the fix names writable_roots", () => {
    const b = box();
    // A data folder outside /tmp, which Codex's sandbox lets commands write to.
    b.env["XDG_DATA_HOME"] = "/srv/rtk-test/share";
    assert.equal(launchSync(["init", "--agent", "codex"], { cwd: b.project, env: b.env }).status, 0);
    const c = sandboxCheck(b);
    assert.equal(c.ok, true);
    assert.match(c.detail, /^degraded inside Codex's sandbox.*not recorded.*rtk recall/);
    assert.match(c.fix ?? "", /add "\/srv\/rtk-test\/share\/rtk" to writable_roots under \[sandbox_workspace_write\]/);
  });
  test("rtk's data folder among the writable roots, or no sandbox: nothing degraded", () => {
    const b = box();
    assert.equal(launchSync(["init", "--agent", "codex"], { cwd: b.project, env: b.env }).status, 0);
    put(b.config, `sandbox_mode = "workspace-write"\n[sandbox_workspace_write]\nwritable_roots = ["${join(b.home, ".local", "share")}"]\n`);
    assert.match(sandboxCheck(b).detail, /is writable inside Codex's workspace-write sandbox/);
    put(b.config, `sandbox_mode = "danger-full-access"\n`);
    assert.match(sandboxCheck(b).detail, /outside a sandbox/);
  });
});
