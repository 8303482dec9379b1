// The filters for listings, searches and file contents.
import type { Filter } from "../types.js";

export const filesFilters: readonly Filter[] = [];
