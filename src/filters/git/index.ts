// The git filters.
import type { Filter } from "../types.js";
import { gitStatus } from "./status.js";

export const gitFilters: readonly Filter[] = [gitStatus];
