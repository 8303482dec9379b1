// The filter ids that have an implementation, listed apart from the filters so
// the rewrite path knows what is routable without loading them. A test checks
// that this list and src/filters/index.ts agree.
import { FILES_FILTER_IDS } from "./files/ids.js";
import { GIT_FILTER_IDS } from "./git/ids.js";

export const AVAILABLE_FILTERS: ReadonlySet<string> = new Set<string>([...GIT_FILTER_IDS, ...FILES_FILTER_IDS]);
