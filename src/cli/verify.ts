// `rtk verify`: checks the config (the user's file and the trusted project
// file) and runs every declarative filter's inline tests, printing each failing
// test with a diff of expected and actual output. Exit 1 when the config has an
// error or a test fails.
import { formatIssue } from "../config/file.js";
import { loadConfig, setting } from "../config/load.js";
import type { FilterDef } from "../config/schema.js";
import { CHARS_PER_TOKEN } from "../filters/budget.js";
import { runInlineTest, TEST_RECALL_ID } from "../filters/declarative.js";
import { unifiedDiff } from "../hosts/diff.js";
import { parseOptions } from "./args.js";
import { usageError } from "./help.js";

export function verifyCli(args: string[]): number {
  const opts = parseOptions("verify", args, {});
  if (typeof opts === "number") return opts;
  if (opts._.length) return usageError("verify", `unexpected \`${opts._[0]}\``);
  const cfg = loadConfig(process.env, process.cwd());
  for (const w of cfg.warnings) process.stderr.write(w + "\n");
  for (const i of cfg.issues) process.stderr.write(`rtk verify: error: ${formatIssue(i)}\n`);
  const limits = { listChars: setting(cfg, "limits", "list_tokens") * CHARS_PER_TOKEN };
  const out: string[] = [];
  let passed = 0;
  let failed = 0;
  const filters: FilterDef[] = [...cfg.filters, ...cfg.shadowed];
  for (const f of filters) {
    const results = f.tests.map((t) => runInlineTest(f, limits, t));
    const bad = results.filter((r) => !r.passed);
    passed += results.length - bad.length;
    failed += bad.length;
    const where = `${f.file}:${f.line}`;
    if (!bad.length) {
      out.push(`ok    ${f.name}: ${results.length ? `${results.length} inline test${results.length === 1 ? "" : "s"} passed` : "no inline tests"}  (${where})`);
      continue;
    }
    for (const r of bad) {
      out.push(`FAIL  ${f.name}: inline test ${r.test.index} of ${results.length}  (${f.file}:${r.test.line})`);
      const diff = unifiedDiff(withNewline(r.test.expected), withNewline(r.actual), "x", 3).split("\n");
      out.push("      --- expected", "      +++ actual", ...diff.slice(2).filter((l) => l !== "").map((l) => `      ${l}`));
    }
  }
  const broken = cfg.broken.length;
  out.push(
    `${filters.length} filter${filters.length === 1 ? "" : "s"}${broken ? ` (and ${broken} with errors, not run)` : ""}, ${passed + failed} inline test${passed + failed === 1 ? "" : "s"}: ${passed} passed, ${failed} failed; ${cfg.issues.length} config error${cfg.issues.length === 1 ? "" : "s"}`,
  );
  if (failed) out.push(`(omission markers show the recall handle as [rtk recall ${TEST_RECALL_ID}])`);
  process.stdout.write(out.join("\n") + "\n");
  return failed || cfg.issues.length ? 1 : 0;
}

function withNewline(s: string): string {
  return s === "" || s.endsWith("\n") ? s : s + "\n";
}
