// The filter ids that have an implementation (src/filters/index.ts), listed apart
// so the rewrite path knows what is routable without loading the filters. A test
// checks that both lists agree.
export const AVAILABLE_FILTERS: ReadonlySet<string> = new Set<string>(["git.status"]);
