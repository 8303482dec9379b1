// The entry point built into the V8 startup snapshot: only the hot path (the
// commands hosts run before every agent command: `rewrite` and `hook`), with its
// parser constructed and warmed up before the heap is saved. chevrotain's grammar
// analysis is what makes a plain start slow; a lean heap is what makes a snapshot
// start fast. rtk's other commands start here too and load the full CLI bundle
// from disk, which takes this heap's parser (scripts/build.mjs, "shared-grammar").
// In a snapshot start, process.argv is [node, ...args].
import { dirname, join, resolve } from "node:path";
import v8 from "node:v8";
import * as grammar from "../../grammar/parse.js";
import { rewrite } from "../api.js";
import { activeRegistry, fullRegistry } from "../routing.js";
import { hookCli } from "./hook.js";
import { readExactCommand, wantsHelp } from "./input.js";
import { rewriteCli } from "./rewrite.js";
import { settle } from "./finish.js";
import { restoreLauncherEnv } from "./launcher-env.js";
import { cacheBeside, requireCached } from "./code-cache.js";

grammar.getParser();
(globalThis as { __rtkGrammar?: typeof grammar }).__rtkGrammar = grammar;
activeRegistry();
fullRegistry();
// A little warm-up keeps the commonest paths compiled in the heap; more costs a
// start more to deserialize than it saves in compiling (measured).
for (const cmd of ["git status && npm test | tail -5", "FOO=1 timeout 60 npx vitest run 2>&1 | tail -30", "cat <<EOF\n$x\nEOF"]) {
  rewrite(cmd, { env: {}, warn: () => {}, cwd: "/" });
}

v8.startupSnapshot.setDeserializeMainFunction(() => {
  restoreLauncherEnv();
  const argv = process.argv.slice(1);
  const [cmd, ...rest] = argv;
  // Help texts are not in this heap: `--help` goes to the full CLI.
  const hot = (cmd === "rewrite" || cmd === "hook") && !wantsHelp(rest);
  // Files that are not there (rules, configs, PATH entries) are probed with calls
  // that throw; these commands never show a stack, and capturing one is most of a throw's cost.
  if (hot) Error.stackTraceLimit = 0;
  if (hot && cmd === "rewrite") return settle(rewriteCli(rest, readExactCommand));
  if (hot) return settle(hookCli(rest));
  // The launcher says where it is; the snapshot's own idea of its folder dates from its build.
  const self = process.env["RTK_SELF"];
  const dist = self ? resolve(dirname(self), "..", "dist") : __dirname;
  const main = join(dist, "rtk-main.cjs");
  (requireCached(main, cacheBeside(process.execArgv, main)) as { run(argv: string[]): void }).run(argv);
});
