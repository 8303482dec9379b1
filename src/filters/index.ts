// Every filter implementation, by id. Loaded only on the runtime path.
import { filesFilters } from "./files/index.js";
import { gitFilters } from "./git/index.js";
import type { Filter } from "./types.js";

export const FILTERS: ReadonlyMap<string, Filter> = new Map([...gitFilters, ...filesFilters].map((f) => [f.id, f]));
