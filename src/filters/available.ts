// The filter ids that have an implementation. Kept apart from the filters
// themselves so the rewrite path can know what is routable without loading them.
export const AVAILABLE_FILTERS: ReadonlySet<string> = new Set<string>([]);
