// The ids of the listing, search and content filters (kept apart from their code; see ../available.ts).
export const FILES_FILTER_IDS = ["ls", "tree", "find", "grep", "content", "wc", "env"] as const;
