// `rtk [rtk-options] <argv…>`: the same registry as the rewrite maps argv to a
// route; a routed tool runs through its filter, anything else runs as it is.
import { matchRoute } from "../routes/match.js";
import { activeRegistry, fullRegistry } from "../routes/registry.js";
import { FILTERS } from "../filters/index.js";
import { runFiltered, runPassthrough } from "./run.js";

/** rtk's own options: long-form only, and only before the tool word. */
const RTK_OPTIONS = new Set(["--raw", "--verbose", "--no-track"]);

export async function runTool(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  let i = 0;
  let raw = env["RTK_RAW"] === "1";
  while (i < args.length && RTK_OPTIONS.has(args[i]!)) {
    if (args[i] === "--raw") raw = true;
    i++;
  }
  const argv = args.slice(i);
  if (!argv.length) {
    process.stderr.write("usage: rtk [--raw] <command> [args…]  (see `rtk help`)\n");
    return 2;
  }
  const registry = env["RTK_ROUTES"] === "all" ? fullRegistry() : activeRegistry();
  const match = matchRoute(argv, registry);
  const filter = match && !match.indirect ? FILTERS.get(match.route.filter) : undefined;
  if (!match || !filter || raw) return runPassthrough(argv, env);
  return runFiltered(filter, { argv, toolIndex: match.toolIndex, route: match.route }, { env, raw });
}
