// The ids of the git filters (kept apart from their code; see ../available.ts).
export const GIT_FILTER_IDS = ["git.status", "git.log", "git.diff", "git.action"] as const;
