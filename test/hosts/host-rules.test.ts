// Permission rules of hosts whose patterns would not see the rewritten `rtk …`
// command: Copilot CLI's `--deny-tool` / `--allow-tool`, read from the command
// line of the running `copilot` the hook descends from (OpenCode's
// `permission.bash` is tested with its plugin, in opencode.test.ts). A real
// process tree: a `copilot` stand-in started with the options runs the built
// hook as its child, as Copilot CLI does.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { ensureBuilt } from "../support/build.js";
import { RTK } from "../support/launch.js";

let root: string;
let copilot: string;
let home: string;
let project: string;

before(() => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), "rtk-host-rules-"));
  home = join(root, "home");
  project = join(root, "proj");
  mkdirSync(home, { recursive: true });
  mkdirSync(join(project, ".git"), { recursive: true });
  copilot = join(root, "bin", "copilot");
  mkdirSync(join(root, "bin"));
  // Copilot CLI runs the hook's `bash` command as a child, the event on stdin.
  writeFileSync(copilot, `#!/bin/sh\n${JSON.stringify(RTK)} hook copilot\n`);
  chmodSync(copilot, 0o755);
});
after(() => rmSync(root, { recursive: true, force: true }));

function asCopilot(options: string[], command: string) {
  const event = { timestamp: 1768471452345, cwd: project, toolName: "bash", toolArgs: JSON.stringify({ command, description: "x" }) };
  const r = spawnSync(copilot, options, {
    input: JSON.stringify(event),
    cwd: project,
    encoding: "utf8",
    env: { PATH: process.env["PATH"] ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config") },
  });
  assert.equal(r.status, 0, r.stderr);
  return { stdout: r.stdout, answer: r.stdout ? (JSON.parse(r.stdout) as Record<string, any>) : null };
}

describe("Copilot CLI's --deny-tool / --allow-tool", () => {
  const OPTIONS = ["--deny-tool", "shell(git push)", "--allow-tool=shell(git status),shell(git log:*)"];

  test("without them, `git push origin main` is rewritten with no decision (the control)", () => {
    const { answer } = asCopilot([], "git push origin main");
    assert.equal(answer?.["modifiedArgs"]?.command, "rtk git push origin main");
    assert.equal(answer?.["permissionDecision"], undefined);
  });

  test("a command --deny-tool names is left to Copilot as typed: no answer (its own deny sees it)", () => {
    assert.equal(asCopilot(OPTIONS, "git push origin main").stdout, "");
    assert.equal(asCopilot(OPTIONS, "git status && git push").stdout, "");
  });

  test("`rtk git push` typed by the agent is denied by rtk itself, naming the rule", () => {
    const { answer } = asCopilot(OPTIONS, "rtk git push origin main");
    assert.equal(answer?.["permissionDecision"], "deny");
    assert.match(answer?.["permissionDecisionReason"], /git push/);
  });

  test("--allow-tool earns the allow: the rewrite comes back allowed", () => {
    for (const command of ["git status", "git log -n 3"]) {
      const { answer } = asCopilot(OPTIONS, command);
      assert.equal(answer?.["modifiedArgs"]?.command, `rtk ${command}`);
      assert.equal(answer?.["permissionDecision"], "allow", command);
    }
    // Not every part allowed: no allow.
    assert.equal(asCopilot(OPTIONS, "git status && git diff").answer?.["permissionDecision"], undefined);
  });
});
