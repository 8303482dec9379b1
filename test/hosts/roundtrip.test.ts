// `rtk init` then `rtk init --uninstall`, for every host rtk installs into and
// every scope it has, into a temporary HOME and project that already hold the
// user's files: settings JSON with keys of its own (pretty, minified, an empty
// object), a TOML file beside them, a folder of rules. After the uninstall both
// trees are byte for byte what they were (no file, folder or backup left), a
// second init changes nothing, and rtk's data folder holds nothing more.
import assert from "node:assert/strict";
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { after, before, describe, test } from "node:test";
import { INSTALLS } from "../../src/hosts/index.js";
import type { HostInstall, Scope } from "../../src/hosts/types.js";
import { ensureBuilt } from "../support/build.js";
import { launch, type Run } from "../support/launch.js";

before(() => ensureBuilt());

const made: string[] = [];
after(() => {
  for (const d of made) rmSync(d, { recursive: true, force: true });
});

interface World {
  root: string;
  home: string;
  project: string;
  data: string;
  env: Record<string, string>;
}

function world(): World {
  const root = mkdtempSync(join(tmpdir(), "rtk-roundtrip-"));
  made.push(root);
  const home = join(root, "home");
  const project = join(home, "src", "app");
  const data = join(root, "data");
  mkdirSync(join(project, ".git"), { recursive: true });
  mkdirSync(join(home, ".config"), { recursive: true });
  // The user's files rtk must not touch: a TOML config, a folder of rules, notes.
  put(join(home, ".codex", "config.toml"), 'model = "gpt-5.1-codex"\n\n[features]\nhooks = true\n');
  put(join(project, ".clinerules", "house.md"), "# House rules\n\n- Use pnpm.\n");
  put(join(project, "README.md"), "# app\n");
  const env = { PATH: process.env["PATH"] ?? "", HOME: home, XDG_CONFIG_HOME: join(home, ".config"), XDG_DATA_HOME: data };
  return { root, home, project, data, env };
}

function put(path: string, text: string) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, text);
}

/** Every file and folder under `dir`, relative, with the bytes of each file. */
function tree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      if (lstatSync(p).isDirectory()) {
        out[relative(dir, p) + "/"] = "";
        walk(p);
      } else out[relative(dir, p)] = readFileSync(p, "latin1");
    }
  };
  try {
    walk(dir);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") throw e;
  }
  return out;
}

const files = (dir: string) => Object.keys(tree(dir)).filter((k) => !k.endsWith("/"));

function ok(r: Run, what: string) {
  assert.equal(r.status, 0, `${what}: exit ${r.status}\n${r.stdout}${r.stderr}`);
}

/** What the user had in the host's file before rtk came, per kind of target. */
function userFiles(host: HostInstall): Record<string, string | null> {
  const t = host.target;
  if (t.kind === "json") {
    const skeleton = t.skeleton;
    return {
      none: null,
      pretty: JSON.stringify({ ...skeleton, $comment: "kept by hand", theme: "dark", permissions: { allow: ["Read"] } }, null, 4) + "\n",
      minified: JSON.stringify({ ...skeleton, theme: "dark", env: { FOO: "1" } }),
      "empty object": "{}\n",
    };
  }
  if (t.kind === "toml")
    return {
      none: null,
      settings: 'default_model = "kimi-k2"\n\n[loop_control]\nmax_steps_per_turn = 100\n',
      "no final newline": 'default_model = "kimi-k2"',
      "hooks of the user's own": '[[hooks]]\nevent = "Notification"\ncommand = "notify-send done"\n',
    };
  if (t.kind === "block") return { none: null, notes: "# Notes\n\nBe brief.", "notes with newline": "# Notes\n\n- one\n- two\n" };
  return { none: null };
}

const SCOPES: Scope[] = ["global", "project"];

// Every host meets a file of the user's; each kind of file (JSON, TOML, a rules block) meets
// all its variants through the first host that writes it (the editing code is the kind's).
const FIRST_OF_KIND = new Set(["json", "toml", "block", "file"].map((k) => INSTALLS.find((h) => h.target.kind === k)?.name));

function variantsFor(host: HostInstall): [string, string | null][] {
  const all = Object.entries(userFiles(host));
  return FIRST_OF_KIND.has(host.name) ? all : all.slice(0, 2);
}

describe("init / uninstall round trip on the user's own files", { concurrency: true }, () => {
  for (const host of INSTALLS) {
    for (const scope of SCOPES) {
      if (!host.scopes[scope]) continue;
      for (const [variant, original] of variantsFor(host)) {
        test(`${host.name} --${scope}, ${variant}`, async () => {
          const w = world();
          const file = host.scopes[scope]!({ env: w.env, cwd: w.project });
          if (original !== null) put(file, original);
          const homeBefore = tree(w.home);
          const rtk = (...args: string[]) => launch(["init", "--agent", host.name, `--${scope}`, ...args], { cwd: w.project, env: w.env });

          const first = await rtk();
          ok(first, "install");
          const installed = tree(w.home);
          assert.notDeepEqual(installed, homeBefore, "the install changed something");
          for (const f of files(w.home)) assert.ok(!/\.rtk-bak$|\.tmp$/.test(f), `nothing beside the user's files: ${f}`);

          const second = await rtk();
          ok(second, "second install");
          assert.match(second.stdout, /nothing changed/, second.stdout);
          assert.deepEqual(tree(w.home), installed, "init twice = init once");

          const u = await rtk("--uninstall");
          ok(u, "uninstall");
          assert.deepEqual(tree(w.home), homeBefore, "byte for byte what the user had, and nothing more");
          assert.deepEqual(files(w.data), [], "rtk's data folder keeps nothing once uninstalled");
          // A second uninstall finds nothing of rtk's: the kind's editing code says so, once per kind.
          if (!FIRST_OF_KIND.has(host.name)) return;
          const again = await rtk("--uninstall");
          ok(again, "second uninstall");
          assert.match(again.stdout, /nothing changed/);
        });
      }
    }
  }

  // The file changed after the install (the user edited a value of their own): only rtk's part goes.
  for (const host of INSTALLS.filter((h) => h.target.kind === "json")) {
    for (const variant of ["pretty", "minified"] as const) {
      test(`${host.name}: ${variant} settings edited after the install keep the edit, lose rtk's entry`, async () => {
        const w = world();
        const scope = host.defaultScope;
        const file = host.scopes[scope]!({ env: w.env, cwd: w.project });
        const original = userFiles(host)[variant]!;
        put(file, original);
        const rtk = (...args: string[]) => launch(["init", "--agent", host.name, `--${scope}`, ...args], { cwd: w.project, env: w.env });
        ok(await rtk(), "install");
        writeFileSync(file, readFileSync(file, "utf8").replace('"dark"', '"light"'));
        const u = await rtk("--uninstall");
        ok(u, "uninstall");
        assert.match(u.stdout, /hook removed from /, u.stdout);
        assert.equal(readFileSync(file, "utf8"), original.replace('"dark"', '"light"'));
        assert.deepEqual(files(w.data), []);
      });
    }
  }
});
