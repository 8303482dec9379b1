// The library API for in-process hosts.
export { rewrite, resultJson, type RewriteCallOptions } from "./api.js";
export { rewriteCommand, exitCodeOf, COMMAND_LIMITS, type CommandLimits, type RewriteResult, type RewriteOptions, type Verdict, type PermissionSource } from "./rewrite/rewrite.js";
export type { Segment, Reason } from "./rewrite/mark.js";
export { buildRegistry, FAMILIES } from "./routes/registry.js";
export { activeRegistry, fullRegistry } from "./routing.js";
export { explain } from "./explain.js";
export { parse, type ParseResult, type ParseError } from "../grammar/parse.js";
export { printLossless, type Insertion } from "./printer/lossless.js";
export { printCanonical } from "./printer/canonical.js";
export { printTree } from "./ast/tree.js";
export { children, walk } from "./ast/walk.js";
export type * from "./ast/nodes.js";
export { VERSION } from "./version.js";
