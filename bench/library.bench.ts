// The built-in library of declarative filters (src/filters/builtin) on its own
// inline test samples, through the built bin/rtk: each sample is printed by a
// stand-in of the tool on PATH, so the run takes the real route, filter and
// "never longer than raw" choice. Savings in tokens per sample and the
// library's median; facts checked independently of the filters: every line of
// the raw output that names an error, warning, failure, verdict or count, or a
// file:line location, is in the compact output; the exit code is the tool's.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { libraryFilter, LIBRARY_TEXTS } from "../src/filters/library.js";
import { library } from "../src/routes/library.js";
import { root, type Bench } from "./harness/context.js";
import { loadTokenizer } from "./inputs/tokenizer.js";

const launcher = join(root, "bin/rtk");
const TARGET_MEDIAN = 50;

/**
 * A line the agent needs: a diagnostic, a failure, a verdict or a summary
 * count. A position in a run (`12/40 Test #12: …`, ctest's) is progress, not a count.
 */
const FACT =
  /\b(error|warning|fail(ed|ure|s)?|fatal|not found|no work|up-to-date|build complete|completed successfully|successfully)\b|(?<!\/)\b\d+ (tests?|failures?|errors?|warnings?)\b|^\*\* |[\w./-]+\.\w+:\d+(:\d+)?:/i;
/** A test summary's count line (meson's `Ok:`, `Fail:`): case matters, `ok: [host]` is a passing task. */
const COUNT = /^(Ok|Fail|Skipped|Expected Fail|Unexpected Pass|Timeout): /;

const bench: Bench = async ({ report }) => {
  const tokens = await loadTokenizer();
  await report.section(`Built-in declarative filters: savings on their inline samples (${tokens.name})`, ["filter", "sample", "raw tok", "compact tok", "saved", "facts kept", "exit"], (area) => {
    const tmp = mkdtempSync(join(tmpdir(), "rtk-library-bench-"));
    const bin = join(tmp, "bin");
    mkdirSync(bin);
    const savings: number[] = [];
    const byFilter = new Map<string, number[]>();
    let samples = 0;
    let faithful = 0;
    let exact = 0;
    let never = 0;
    try {
      for (const row of library.routes) {
        const def = libraryFilter(row.id);
        const argv = [row.tool, ...(row.sub ?? []).map((w) => (typeof w === "string" ? w : w[0]!))];
        for (const t of def.tests) {
          samples++;
          const raw = t.input;
          const status = /\b(error|FAILED|failed)\b/.test(raw) ? 1 : 0;
          const sample = join(tmp, "sample.txt");
          writeFileSync(sample, raw);
          writeFileSync(join(bin, row.tool), `#!/bin/sh\ncat '${sample}'\nexit ${status}\n`);
          chmodSync(join(bin, row.tool), 0o755);
          const r = spawnSync(launcher, argv, {
            encoding: "utf8",
            env: { PATH: [bin, process.env["PATH"] ?? "/usr/bin:/bin"].join(delimiter), HOME: tmp, XDG_CONFIG_HOME: join(tmp, "config"), XDG_DATA_HOME: join(tmp, "data"), RTK_NO_TRACK: "1" },
          });
          const compact = r.stdout + r.stderr;
          const facts = raw.split("\n").filter((l) => (FACT.test(l) || COUNT.test(l)) && l.trim() !== "");
          const kept = facts.filter((l) => compact.includes(l.trimEnd())).length;
          const rawTok = tokens.count(raw);
          const compactTok = tokens.count(compact);
          const saved = rawTok ? ((rawTok - compactTok) / rawTok) * 100 : 0;
          savings.push(saved);
          byFilter.set(row.id, [...(byFilter.get(row.id) ?? []), saved]);
          if (kept === facts.length) faithful++;
          if (r.status === status) exact++;
          if (compact.length <= raw.length) never++;
          area.row([row.id, `#${t.index}`, rawTok, compactTok, `${saved.toFixed(1)} %`, `${kept} / ${facts.length}`, `${r.status} / ${status}`]);
        }
      }
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
    const median = medianOf(savings);
    // Each filter once, at the median of its own samples: a filter with many edge-case samples weighs no more.
    const filterMedian = medianOf([...byFilter.values()].map(medianOf));
    area.figure("filters", LIBRARY_TEXTS.size);
    area.figure("savings", savings);
    area.row([`median of the ${byFilter.size} filters' medians`, "", "", "", `${filterMedian.toFixed(1)} %`, "", ""]);
    area.row(
      [`median over ${samples} samples`, `${LIBRARY_TEXTS.size} filters`, "", "", `${median.toFixed(1)} %`, "", ""],
      area.check("declarative library median savings", Math.round(median * 10) / 10, "%", { min: TARGET_MEDIAN }),
    );
    area.row(["every fact kept", "", "", "", "", `${faithful} / ${samples}`, ""], area.check("library samples with 100 % facts kept", faithful, "", { equals: samples }, "correctness"));
    area.row(["exit code exact", "", "", "", "", "", `${exact} / ${samples}`], area.check("library samples with the tool's exit code", exact, "", { equals: samples }, "correctness"));
    area.row(["never longer than raw", "", "", "", `${never} / ${samples}`, "", ""], area.check("library samples not longer than raw", never, "", { equals: samples }, "correctness"));
  });
};

function medianOf(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length / 2;
  return sorted.length % 2 ? sorted[Math.floor(mid)]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

export default bench;
