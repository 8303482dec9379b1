// An indented view of the tree for people (`rtk explain --tree`): one node per
// line with its kind, its scalar fields and its span.
import type * as A from "./nodes.js";
import { children } from "./walk.js";

export function printTree(root: A.Node): string {
  const lines: string[] = [];
  const go = (n: A.Node, depth: number) => {
    const fields: string[] = [];
    for (const [k, v] of Object.entries(n)) {
      if (k === "kind" || k === "span") continue;
      if (typeof v === "string") fields.push(`${k}=${JSON.stringify(v)}`);
      else if (v === true) fields.push(k);
      else if (typeof v === "number") fields.push(`${k}=${v}`);
    }
    if (n.kind === "Pipeline" && n.pipeStderr.some(Boolean)) fields.push(`pipeStderr=[${n.pipeStderr.join(",")}]`);
    if (n.kind === "For" && n.items === null) fields.push("noIn");
    lines.push(`${"  ".repeat(depth)}${n.kind}${fields.length ? " " + fields.join(" ") : ""} @${n.span.start}-${n.span.end}`);
    for (const c of children(n)) go(c, depth + 1);
  };
  go(root, 0);
  return lines.join("\n");
}
