// What rtk routes: the registry's rows whose filter the catalog holds. The routes
// know no filter code; this is where the two meet.
import type { Env } from "./config/hooks.js";
import { FILTER_IDS } from "./filters/catalog.js";
import { fullRegistry, routedRegistry, type Registry } from "./routes/registry.js";

/** The rows whose filter exists. */
export function activeRegistry(): Registry {
  return routedRegistry(FILTER_IDS);
}

/** The registry a run reads: RTK_ROUTES=all also routes tools whose filter is not built yet (their output passes through). */
export function registryFor(env: Env): Registry {
  return env["RTK_ROUTES"] === "all" ? fullRegistry() : activeRegistry();
}

export { fullRegistry };
