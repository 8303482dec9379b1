// `helm status`, `helm install`, `helm upgrade`: the release's fields and its
// NOTES as helm printed them; the resource list (`--show-resources`: a table
// per kind after `==> v1/Deployment`) compacted as kubectl's tables are —
// rows alike but for their name on one line, AGE named as left out. Output
// the user shaped (`-o json|yaml`), dry runs and `--debug` (the rendered
// manifests and values are data) print as they are; stderr is kept whole.
import { limitsOf } from "../budget.js";
import { omitted } from "../types.js";
import { argsAfterSub, hasOption, wholeStdout } from "./common.js";
import { compactTables, KUBECTL_RULES } from "./table.js";

export const helmRelease = wholeStdout("helm.release", (input, ctx) => {
  if (hasOption(argsAfterSub(input), ["-o", "--output", "--dry-run", "--debug"])) return null;
  return (lines) => {
    const start = lines.indexOf("RESOURCES:");
    if (start < 0) return null;
    let end = lines.findIndex((l, i) => i > start && /^[A-Z][A-Z ]+:/.test(l) && !l.startsWith("==>"));
    if (end < 0) end = lines.length;
    const out = lines.slice(0, start + 1);
    const budget = limitsOf(ctx).list;
    let block: string[] = [];
    let kind: string | null = null;
    const flush = () => {
      if (kind === null) return;
      const compact = compactTables(
        block,
        KUBECTL_RULES,
        budget,
        (n) => omitted(n, n === 1 ? "row" : "rows", ctx.recall),
        () => ctx.recall.id(),
      );
      out.push(kind, ...(compact ? [...compact, ""] : block));
    };
    for (const l of lines.slice(start + 1, end)) {
      if (l.startsWith("==> ")) {
        flush();
        kind = l;
        block = [];
      } else if (kind === null) out.push(l);
      else block.push(l);
    }
    flush();
    out.push(...lines.slice(end));
    return out;
  };
});
