// The filters for listings, searches and file contents.
import type { Filter } from "../types.js";
import { content } from "./content.js";
import { env } from "./env.js";
import { find } from "./find.js";
import { grep } from "./grep.js";
import { ls } from "./ls.js";
import { tree } from "./tree.js";
import { wc } from "./wc.js";

export const filesFilters: readonly Filter[] = [ls, tree, find, grep, content, wc, env];
