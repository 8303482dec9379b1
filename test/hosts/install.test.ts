// The install of a JSON target whose host reads its file in more than one shape:
// a file in a shape rtk's entry does not fit is left untouched, with the target's
// reason; one it fits takes the entry as any other.
import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, test } from "node:test";
import { init } from "../../src/hosts/install.js";
import type { HostInstall } from "../../src/hosts/types.js";

const root = mkdtempSync(join(tmpdir(), "rtk-install-"));
after(() => rmSync(root, { recursive: true, force: true }));

const file = join(root, "project", ".host", "hooks.json");
const where = { env: { HOME: join(root, "home"), XDG_DATA_HOME: join(root, "data") }, cwd: join(root, "project") };

/** A host whose file keeps events at its top level, and reads them inside `wrap` instead when that key is there. */
const host: HostInstall = {
  name: "demo",
  title: "Demo",
  target: {
    kind: "json",
    arrayPath: ["pre_tool_use"],
    skeleton: {},
    entries: (command) => [{ matcher: "terminal", hooks: [{ command }] }],
    unfit: (settings) => ("wrap" in settings ? "its events are inside `wrap`, where the host reads no `pre_tool_use` beside them" : null),
  },
  scopes: { project: () => file },
  defaultScope: "project",
};

const install = () => init({ host, scope: "project", uninstall: false, dryRun: false, where, paths: { bin: "/opt/rtk/bin/rtk", lib: "/opt/rtk/dist/lib.mjs" } });

function put(text: string) {
  mkdirSync(join(root, "project", ".host"), { recursive: true });
  writeFileSync(file, text);
}

test("a file whose shape the entry does not fit is left untouched, with the target's reason", () => {
  const text = '{ "wrap": { "stop": [] } }\n';
  put(text);
  const r = install();
  assert.equal(r.action, "error");
  assert.match(r.message, /inside `wrap`, where the host reads no `pre_tool_use` beside them; it was left untouched$/);
  assert.equal(readFileSync(file, "utf8"), text);
});

test("a file the entry fits takes it at the array path", () => {
  put('{ "stop": [] }\n');
  const r = install();
  assert.equal(r.action, "installed", r.message);
  const doc = JSON.parse(readFileSync(file, "utf8")) as { stop: unknown[]; pre_tool_use: { matcher: string }[] };
  assert.deepEqual(doc.stop, []);
  assert.equal(doc.pre_tool_use[0]!.matcher, "terminal");
});
