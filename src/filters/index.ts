// Every filter implementation, by id. Loaded only on the runtime path.
import { gitStatus } from "./git-status.js";
import type { Filter } from "./types.js";

export const FILTERS: ReadonlyMap<string, Filter> = new Map([gitStatus].map((f) => [f.id, f]));
