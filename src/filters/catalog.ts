// Every built-in filter. A filter carries its own id; routes name filters by id.
// Adding a filter is adding its file and a line here (a built-in declarative
// filter is a file in ./builtin and nothing else).
import { content } from "./files/content.js";
import { env } from "./files/env.js";
import { find } from "./files/find.js";
import { grep } from "./files/grep.js";
import { ls } from "./files/ls.js";
import { tree } from "./files/tree.js";
import { wc } from "./files/wc.js";
import { gitAction } from "./git/action.js";
import { gitDiff } from "./git/diff.js";
import { gitLog } from "./git/log.js";
import { gitStatus } from "./git/status.js";
import { LIBRARY_CATALOG } from "./library.js";
import type { Filter } from "./types.js";

const CATALOG: readonly Filter[] = [gitStatus, gitLog, gitDiff, gitAction, ls, tree, find, grep, content, wc, env, ...LIBRARY_CATALOG];

export const FILTERS: ReadonlyMap<string, Filter> = new Map(CATALOG.map((f) => [f.id, f]));

export const FILTER_IDS: ReadonlySet<string> = new Set(FILTERS.keys());
