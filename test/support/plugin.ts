// What the tests of the in-process plugins (OpenCode's plugin, Pi's extension)
// share: the plugin runs inside the test process, so the process gets the CLI
// tests' hermetic environment; copies of an installed plugin with its library
// or launcher path replaced; a launcher that logs each start.
import assert from "node:assert/strict";
import { chmodSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { RTK } from "./launch.js";

/** Gives this process the environment of an rtk run in `home` (all routes, no RTK_DISABLED); returns what puts it back. */
export function inProcessEnv(home: string): () => void {
  const saved: Record<string, string | undefined> = {};
  for (const [k, v] of Object.entries({ RTK_ROUTES: "all", HOME: home, XDG_CONFIG_HOME: join(home, ".config") })) {
    saved[k] = process.env[k];
    process.env[k] = v;
  }
  delete process.env["RTK_DISABLED"];
  return () => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  };
}

/** A copy of a plugin's text, written to `<home>/variants/<name>.ts`, with its library or launcher path replaced. */
export function pluginVariant(text: string, home: string, name: string, replace: { lib?: string; bin?: string }): string {
  for (const [key, value] of [
    ["RTK_LIB", replace.lib],
    ["RTK_BIN", replace.bin],
  ] as const) {
    if (value === undefined) continue;
    const line = new RegExp(`const ${key} = "[^"]*";`);
    assert.match(text, line);
    text = text.replace(line, `const ${key} = ${JSON.stringify(value)};`);
  }
  const file = join(home, "variants", `${name}.ts`);
  mkdirSync(join(home, "variants"), { recursive: true });
  writeFileSync(file, text);
  return file;
}

/** An `rtk` in `<home>/bins/<name>` that logs each start's arguments, then runs the real launcher. */
export function loggingBin(home: string, name: string): { bin: string; log: string } {
  const dir = join(home, "bins", name);
  mkdirSync(dir, { recursive: true });
  const bin = join(dir, "rtk");
  const log = join(dir, "calls.log");
  writeFileSync(bin, `#!/bin/sh\necho "$*" >> ${JSON.stringify(log)}\nexec ${JSON.stringify(RTK)} "$@"\n`);
  chmodSync(bin, 0o755);
  return { bin, log };
}
