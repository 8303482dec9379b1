// `rtk verify`: checks the config (the user's file and the trusted project
// file) and runs every declarative filter's inline tests, printing each failing
// test with a diff of expected and actual output. Exit 1 when the config has an
// error or a test fails. `--builtin` runs the tests of rtk's own library of
// declarative filters instead, with the default limits (the user's config
// does not change what a built-in's tests expect).
import { formatIssue } from "../config/file.js";
import { loadConfig } from "../config/load.js";
import type { FilterDef } from "../config/schema.js";
import { CHARS_PER_TOKEN, DEFAULT_LIMITS } from "../filters/budget.js";
import { BUILTIN_PREFIX, libraryFile, LIBRARY_TEXTS } from "../filters/library.js";
import { runInlineTest, TEST_RECALL_ID } from "../filters/declarative.js";
import { unifiedDiff } from "../hosts/diff.js";
import { parseOptions } from "./args.js";
import { usageError } from "./help.js";

export function verifyCli(args: string[]): number {
  const opts = parseOptions("verify", args, { boolean: ["builtin"] });
  if (typeof opts === "number") return opts;
  if (opts._.length) return usageError("verify", `unexpected \`${opts._[0]}\``);
  if (opts["builtin"]) return verifyBuiltins();
  const cfg = loadConfig(process.env, process.cwd());
  for (const w of cfg.warnings) process.stderr.write(w + "\n");
  for (const i of cfg.issues) process.stderr.write(`rtk verify: error: ${formatIssue(i)}\n`);
  const limits = { listChars: cfg.limits.list_tokens * CHARS_PER_TOKEN };
  const { out, passed, failed } = runTests([...cfg.filters, ...cfg.shadowed], limits);
  const filters = cfg.filters.length + cfg.shadowed.length;
  const broken = cfg.broken.length;
  out.push(
    `${filters} filter${filters === 1 ? "" : "s"}${broken ? ` (and ${broken} with errors, not run)` : ""}, ${passed + failed} inline test${passed + failed === 1 ? "" : "s"}: ${passed} passed, ${failed} failed; ${cfg.issues.length} config error${cfg.issues.length === 1 ? "" : "s"}`,
  );
  if (failed) out.push(`(omission markers show the recall handle as [rtk recall ${TEST_RECALL_ID}])`);
  process.stdout.write(out.join("\n") + "\n");
  return failed || cfg.issues.length ? 1 : 0;
}

/**
 * The built-in library: each file must hold exactly one valid filter named
 * like the file, with at least one inline test, and every test must pass.
 */
function verifyBuiltins(): number {
  const filters: FilterDef[] = [];
  const out: string[] = [];
  let errors = 0;
  for (const name of LIBRARY_TEXTS.keys()) {
    const file = libraryFile(name);
    const problems = file.issues.map(formatIssue);
    if (!problems.length && (file.filters.length !== 1 || file.broken.length || file.filters[0]!.name !== name)) problems.push(`${file.path}: must hold one [[filters]] named ${JSON.stringify(name)}`);
    else if (!problems.length && !file.filters[0]!.tests.length) problems.push(`${file.path}: a built-in filter needs at least one inline test`);
    if (problems.length) {
      errors++;
      out.push(...problems.map((p) => `ERROR ${name}: ${p}`));
    } else filters.push(file.filters[0]!);
  }
  const run = runTests(filters, { listChars: DEFAULT_LIMITS.list });
  out.push(...run.out);
  out.push(
    `${LIBRARY_TEXTS.size} built-in filter${LIBRARY_TEXTS.size === 1 ? "" : "s"}${errors ? ` (${errors} with errors, not run)` : ""}, ${run.passed + run.failed} inline tests: ${run.passed} passed, ${run.failed} failed`,
  );
  if (run.failed) out.push(`(omission markers show the recall handle as [rtk recall ${TEST_RECALL_ID}])`);
  process.stdout.write(out.join("\n") + "\n");
  return run.failed || errors ? 1 : 0;
}

function runTests(filters: readonly FilterDef[], limits: { listChars: number }): { out: string[]; passed: number; failed: number } {
  const out: string[] = [];
  let passed = 0;
  let failed = 0;
  for (const f of filters) {
    const results = f.tests.map((t) => runInlineTest(f, limits, t));
    const bad = results.filter((r) => !r.passed);
    passed += results.length - bad.length;
    failed += bad.length;
    const where = f.file.startsWith(BUILTIN_PREFIX) ? f.file : `${f.file}:${f.line}`;
    if (!bad.length) {
      out.push(`ok    ${f.name}: ${results.length ? `${results.length} inline test${results.length === 1 ? "" : "s"} passed` : "no inline tests"}  (${where})`);
      continue;
    }
    for (const r of bad) {
      out.push(`FAIL  ${f.name}: inline test ${r.test.index} of ${results.length}  (${f.file}:${r.test.line})`);
      const diff = unifiedDiff(withNewline(r.test.expected), withNewline(r.actual), "x", 3).split("\n");
      out.push(
        "      --- expected",
        "      +++ actual",
        ...diff
          .slice(2)
          .filter((l) => l !== "")
          .map((l) => `      ${l}`),
      );
    }
  }
  return { out, passed, failed };
}

function withNewline(s: string): string {
  return s === "" || s.endsWith("\n") ? s : s + "\n";
}
