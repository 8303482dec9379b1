// The entry point built into the runtime's V8 startup snapshot: `rtk <tool> …`
// with execa, the filters and the registry loaded before the heap is saved, so
// a filtered run pays no bundle compile. Meta-commands load the full CLI bundle.
// In a snapshot start, process.argv is [node, ...args].
import { dirname, join, resolve } from "node:path";
import v8 from "node:v8";
import { FILTERS } from "../filters/catalog.js";
import { runTool } from "../runtime/dispatch.js";
import { runPassthrough } from "../runtime/run.js";
import { activeRegistry, fullRegistry } from "../routing.js";
import { VERSION } from "../version.js";
import { META_COMMANDS } from "../routes/rtk-command.js";
import { finish } from "./finish.js";
import { warmUpRun } from "./warm-run.js";
import { restoreLauncherEnv } from "./launcher-env.js";
import { cacheBeside, requireCached } from "./code-cache.js";

// Evaluated now, kept in the heap: the modules a run needs (execa comes with runTool).
void FILTERS.size;
activeRegistry();
fullRegistry();
// The loop runs out before the heap is saved: the warm-up's run ends first.
void warmUpRun().catch(() => {});

v8.startupSnapshot.setDeserializeMainFunction(() => {
  restoreLauncherEnv();
  const argv = process.argv.slice(1);
  const first = argv[0];
  if (first !== undefined && !META_COMMANDS.has(first)) return finish(runTool(argv));
  // `rtk proxy --help`, and a `--` before the command, are for the full CLI to read.
  if (first === "proxy" && argv.length > 1 && !["--help", "-h", "--"].includes(argv[1]!)) return finish(runPassthrough(argv.slice(1), process.env));
  if ((first === "--version" || first === "-V") && argv.length === 1) return void process.stdout.write(`rtk ${VERSION}\n`);
  const self = process.env["RTK_SELF"];
  const dist = self ? resolve(dirname(self), "..", "dist") : __dirname;
  const main = join(dist, "rtk-main.cjs");
  (requireCached(main, cacheBeside(process.execArgv, main)) as { run(argv: string[]): void }).run(argv);
});
