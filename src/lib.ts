// The library API for in-process hosts.
export { parse, type ParseResult, type ParseError } from "../grammar/parse.js";
export { printLossless, type Insertion } from "./printer/lossless.js";
export { printCanonical } from "./printer/canonical.js";
export { printTree } from "./ast/tree.js";
export { children, walk } from "./ast/walk.js";
export type * from "./ast/nodes.js";
export { VERSION } from "./version.js";
