// The entry point built into the V8 startup snapshot: only the hot path (the
// commands hosts run before every agent command: `rewrite` and `hook`), with its
// parser constructed and warmed up before the heap is saved. chevrotain's grammar
// analysis is what makes a plain start slow; a lean heap is what makes a snapshot
// start fast. Every other command loads the full CLI bundle from disk.
// In a snapshot start, process.argv is [node, ...args].
import { createRequire } from "node:module";
import { dirname, join, resolve } from "node:path";
import v8 from "node:v8";
import { getParser } from "../../grammar/parse.js";
import { rewrite } from "../api.js";
import { activeRegistry, fullRegistry } from "../routing.js";
import { hookCli } from "./hook.js";
import { readExactCommand, wantsHelp } from "./input.js";
import { rewriteCli } from "./rewrite.js";
import { settle } from "./finish.js";
import { restoreLauncherEnv } from "./launcher-env.js";

getParser();
activeRegistry();
fullRegistry();
// A little warm-up keeps the commonest paths compiled in the heap; more costs a
// start more to deserialize than it saves in compiling (measured).
for (const cmd of ["git status && npm test | tail -5", "FOO=1 timeout 60 npx vitest run 2>&1 | tail -30", "cat <<EOF\n$x\nEOF"]) {
  rewrite(cmd, { env: {}, warn: () => {}, cwd: "/" });
}

v8.startupSnapshot.setDeserializeMainFunction(() => {
  // Files that are not there (rules, configs, PATH entries) are probed with calls
  // that throw; these commands never show a stack, and capturing one is most of a throw's cost.
  Error.stackTraceLimit = 0;
  restoreLauncherEnv();
  const argv = process.argv.slice(1);
  const [cmd, ...rest] = argv;
  // Help texts are not in this heap: `--help` goes to the full CLI.
  if (cmd === "rewrite" && !wantsHelp(rest)) return settle(rewriteCli(rest, readExactCommand));
  if (cmd === "hook" && !wantsHelp(rest)) return settle(hookCli(rest));
  // The launcher says where it is; the snapshot's own idea of its folder dates from its build.
  const self = process.env["RTK_SELF"];
  const dist = self ? resolve(dirname(self), "..", "dist") : __dirname;
  const main = join(dist, "rtk-main.cjs");
  (createRequire(main)(main) as { run(argv: string[]): void }).run(argv);
});
