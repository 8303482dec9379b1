// The Pi and Oh My Pi extension (docs/hosts.md): written by `rtk init --agent
// pi` / `--agent omp` into a temporary HOME, loaded as TypeScript (this file runs
// under `node --import tsx`), its default export called with an extension API
// that records handlers, and its `tool_call` handler driven with the events the
// hosts' documentation shows: `{ toolName, toolCallId, input }`. Pi runs the
// tool with `event.input` as the handler left it; Oh My Pi with the `input` the
// handler returns. The extension never blocks and never throws (a throwing
// handler blocks the call in Oh My Pi). Then `rtk doctor` on that HOME.
import assert from "node:assert/strict";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { pathToFileURL } from "node:url";
import { ensureBuilt } from "../support/build.js";
import { launchSync, RTK } from "../support/launch.js";
import { inProcessEnv, loggingBin, pluginVariant } from "../support/plugin.js";

interface ToolCall {
  toolName?: unknown;
  toolCallId?: string;
  input?: Record<string, unknown>;
}
type Handler = (event: ToolCall, ctx?: { cwd?: string }) => Promise<unknown>;

let home: string;
let project: string;
let env: Record<string, string>;
const files = { pi: "", omp: "" };
let restoreEnv: () => void = () => {};

before(() => {
  ensureBuilt();
  home = mkdtempSync(join(tmpdir(), "rtk-pi-"));
  project = join(home, "code", "app");
  mkdirSync(join(project, ".git"), { recursive: true });
  env = { PATH: process.env["PATH"] ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), RTK_ROUTES: "all" };
  for (const [host, args, file] of [
    ["pi", [], join(home, ".pi", "agent", "extensions", "rtk.ts")],
    ["omp", ["--project"], join(project, ".omp", "extensions", "rtk.ts")],
  ] as const) {
    const r = launchSync(["init", "--agent", host, ...args], { cwd: project, env });
    assert.equal(r.status, 0, `init ${host}: ${r.stdout}${r.stderr}`);
    assert.match(r.stdout, /plugin installed in /);
    assert.ok(existsSync(file), `${host}: ${file}`);
    files[host] = file;
  }
  restoreEnv = inProcessEnv(home);
});

after(() => {
  restoreEnv();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** Loads an extension file and calls its default export as the host does; returns its `tool_call` handler. */
async function load(file: string): Promise<Handler> {
  const mod = (await import(pathToFileURL(file).href)) as { default?: unknown };
  assert.equal(typeof mod.default, "function", `${file} exports a default factory`);
  const handlers = new Map<string, Handler>();
  (mod.default as (api: { on(event: string, h: Handler): void }) => void)({ on: (event, h) => handlers.set(event, h) });
  assert.deepEqual([...handlers.keys()], ["tool_call"], "one handler, for tool_call");
  return handlers.get("tool_call")!;
}

/** A copy of an installed extension with its library or launcher path replaced. */
const variant = (from: string, name: string, replace: { lib?: string; bin?: string }) => pluginVariant(readFileSync(from, "utf8"), home, name, replace);

/** The documented bash tool call: `input` is `{ command, timeout? }`. */
const bash = (command: unknown): ToolCall => ({ toolName: "bash", toolCallId: "toolu_01HxR8", input: { command, timeout: 120 } });

for (const host of ["pi", "omp"] as const) {
  describe(`${host}: the installed extension (in-process library)`, () => {
    let handler: Handler;
    before(async () => {
      handler = await load(files[host]);
    });

    test("bash `git status`: event.input is changed in place (Pi) and returned (Oh My Pi), other fields kept", async () => {
      const event = bash("git status");
      const answer = await handler(event, { cwd: project });
      assert.deepEqual(event.input, { command: "rtk git status", timeout: 120 });
      assert.deepEqual(answer, { input: { command: "rtk git status", timeout: 120 } });
    });

    test("a compound command is rewritten part by part", async () => {
      const event = bash("git status && git log -n 3");
      await handler(event, { cwd: project });
      assert.equal(event.input!["command"], "rtk git status && rtk git log -n 3");
    });

    test("nothing to rewrite, another tool, or a command rtk leaves alone: no answer, input untouched", async () => {
      for (const event of [
        bash("git status > out.txt"),
        bash("echo hi"),
        bash("rtk git status"),
        bash('git status "'),
        { toolName: "read", toolCallId: "t2", input: { path: join(project, "README.md") } },
        { toolName: "write", toolCallId: "t3", input: { command: "git status" } },
      ]) {
        const before = JSON.stringify(event);
        assert.equal(await handler(event, { cwd: project }), undefined, before);
        assert.equal(JSON.stringify(event), before);
      }
    });

    test("malformed events fail open: no throw (a throw would block the call), no answer", async () => {
      for (const event of [undefined, null, {}, { toolName: "bash" }, { toolName: "bash", input: null }, bash(["git", "status"]), bash(42)] as unknown as ToolCall[]) {
        assert.equal(await handler(event, undefined), undefined, JSON.stringify(event));
      }
    });

    test("a command with half a surrogate pair (no exact UTF-8 form) does not throw; a rewrite keeps it as typed", async () => {
      const command = "git status '\ud800'";
      const event = bash(command);
      await handler(event, { cwd: project });
      assert.ok([command, `rtk ${command}`].includes(event.input!["command"] as string), JSON.stringify(event.input));
    });

    test("a 1 MiB command is left as typed", async () => {
      const huge = "git status " + "a".repeat(1024 * 1024);
      const event = bash(huge);
      assert.equal(await handler(event, { cwd: project }), undefined);
      assert.equal(event.input!["command"], huge);
    });
  });
}

describe("the extension without its library", () => {
  test("it rewrites through `rtk rewrite --host <host>`, with the launcher it names", async () => {
    const { bin, log } = loggingBin(home, "named");
    const handler = await load(variant(files.omp, "omp-fallback", { lib: join(home, "missing", "lib.mjs"), bin }));
    const event = bash("git status");
    assert.deepEqual(await handler(event, { cwd: project }), { input: { command: "rtk git status", timeout: 120 } });
    assert.match(readFileSync(log, "utf8"), /^rewrite --json --host omp git status$/m);
    const kept = bash("git status > out");
    assert.equal(await handler(kept, { cwd: project }), undefined);
  });

  test("someone else's checkout (the named launcher missing): the `rtk` on PATH", async () => {
    const dir = join(home, "bins", "on-path");
    mkdirSync(dir, { recursive: true });
    symlinkSync(RTK, join(dir, "rtk"));
    const handler = await load(variant(files.pi, "pi-on-path", { lib: join(home, "missing", "lib.mjs"), bin: join(home, "missing", "rtk") }));
    const path = process.env["PATH"];
    process.env["PATH"] = `${dir}:${path ?? ""}`;
    try {
      const event = bash("git log -n 5");
      await handler(event, { cwd: project });
      assert.equal(event.input!["command"], "rtk git log -n 5");
    } finally {
      process.env["PATH"] = path;
    }
  });

  test("no library and no launcher: the command runs as typed", async () => {
    const handler = await load(variant(files.pi, "pi-nothing", { lib: join(home, "missing", "lib.mjs"), bin: join(home, "missing", "rtk") }));
    const path = process.env["PATH"];
    process.env["PATH"] = join(home, "empty");
    try {
      const event = bash("git status");
      assert.equal(await handler(event, { cwd: project }), undefined);
      assert.equal(event.input!["command"], "git status");
    } finally {
      process.env["PATH"] = path;
    }
  });
});

describe("rtk doctor with the extensions installed", () => {
  const report = () => {
    const r = launchSync(["doctor", "--json"], { cwd: project, env });
    return { r, json: JSON.parse(r.stdout) as { ok: boolean; hosts: { host: string; checks: { name: string; ok: boolean; fix?: string }[] }[] } };
  };

  test("the library rewrites doctor's sample in-process and the rewritten command runs", () => {
    const { r, json } = report();
    for (const host of ["pi", "omp"]) {
      const mine = json.hosts.filter((h) => h.host === host);
      assert.equal(mine.length, 1, r.stdout);
      const passed = mine[0]!.checks.filter((c) => c.ok).map((c) => c.name);
      for (const name of ["registered", "library", "self-test", "rewritten command"]) assert.ok(passed.includes(name), `${host} ${name}: ${JSON.stringify(mine[0])}`);
    }
  });

  test("a library that does not rewrite fails the self-test, with the fix", () => {
    const text = readFileSync(files.pi, "utf8");
    const lib = join(home, "mute", "lib.mjs");
    mkdirSync(join(home, "mute"), { recursive: true });
    writeFileSync(lib, "export function rewrite() { return { command: null, exitCode: 1 }; }\n");
    try {
      writeFileSync(files.pi, text.replace(/const RTK_LIB = "[^"]*";/, `const RTK_LIB = ${JSON.stringify(lib)};`));
      const { r, json } = report();
      assert.equal(r.status, 1, r.stdout);
      const failed = json.hosts.find((h) => h.host === "pi")!.checks.filter((c) => !c.ok);
      assert.deepEqual(
        failed.map((c) => c.name),
        ["self-test"],
        r.stdout,
      );
      assert.match(failed[0]!.fix ?? "", /rtk init --agent pi --global/);
    } finally {
      writeFileSync(files.pi, text);
    }
  });
});
