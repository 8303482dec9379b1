// The ids of the listing, search and content filters (kept apart from their code; see ../available.ts).
export const FILES_FILTER_IDS = [] as const;
