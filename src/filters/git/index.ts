// The git filters.
import type { Filter } from "../types.js";
import { gitAction } from "./action.js";
import { gitDiff } from "./diff.js";
import { gitLog } from "./log.js";
import { gitStatus } from "./status.js";

export const gitFilters: readonly Filter[] = [gitStatus, gitLog, gitDiff, gitAction];
