// A unified diff of two small texts (settings files), for `rtk init --dry-run`.

export function unifiedDiff(a: string, b: string, name: string, context = 3): string {
  if (a === b) return "";
  const x = a === "" ? [] : a.replace(/\n$/, "").split("\n");
  const y = b === "" ? [] : b.replace(/\n$/, "").split("\n");
  const ops = lineOps(x, y);
  const out = [`--- ${a === "" ? "/dev/null" : name}`, `+++ ${b === "" ? "/dev/null" : name}`];
  // Group changes with `context` lines around them into hunks.
  let i = 0;
  while (i < ops.length) {
    if (ops[i]!.op === " ") {
      i++;
      continue;
    }
    let start = Math.max(0, i - context);
    let end = i;
    while (end < ops.length) {
      if (ops[end]!.op !== " ") {
        end++;
        continue;
      }
      let run = 0;
      while (end + run < ops.length && ops[end + run]!.op === " ") run++;
      if (end + run >= ops.length || run > 2 * context) {
        end = Math.min(ops.length, end + context);
        break;
      }
      end += run;
    }
    const hunk = ops.slice(start, end);
    const aStart = hunk[0]!.a;
    const bStart = hunk[0]!.b;
    const aLen = hunk.filter((o) => o.op !== "+").length;
    const bLen = hunk.filter((o) => o.op !== "-").length;
    out.push(`@@ -${aLen ? aStart + 1 : aStart},${aLen} +${bLen ? bStart + 1 : bStart},${bLen} @@`);
    for (const o of hunk) out.push(o.op + o.text);
    i = end;
    start = end;
  }
  return out.join("\n") + "\n";
}

interface Op {
  op: " " | "-" | "+";
  text: string;
  /** Line index in a (or where it would be) and in b. */
  a: number;
  b: number;
}

function lineOps(x: string[], y: string[]): Op[] {
  const n = x.length;
  const m = y.length;
  const lcs: number[][] = Array.from({ length: n + 1 }, () => new Array<number>(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) lcs[i]![j] = x[i] === y[j] ? lcs[i + 1]![j + 1]! + 1 : Math.max(lcs[i + 1]![j]!, lcs[i]![j + 1]!);
  const ops: Op[] = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && x[i] === y[j]) ops.push({ op: " ", text: x[i]!, a: i++, b: j++ });
    else if (j < m && (i >= n || lcs[i]![j + 1]! >= lcs[i + 1]![j]!)) ops.push({ op: "+", text: y[j]!, a: i, b: j++ });
    else ops.push({ op: "-", text: x[i]!, a: i++, b: j });
  }
  return ops;
}
