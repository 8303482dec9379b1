// `rspec` (its progress and documentation formatters). Kept: every numbered
// failure (the example's full name, Failure/Error, expected/got, the diff, the
// exception and its message, the first frames rspec shows), errors outside
// examples (a spec file that does not load), each pending example's name and
// reason, the counts line, the `Failed examples:` rerun lines, the random seed,
// what the examples printed (its head), stderr whole. Dropped: progress
// characters, the documentation formatter's example listing (the failures after
// it restate each), `(compared using ==)`, timing. A formatter writing
// machine output (json, html, a custom one) or to a file passes through.
import { omitted } from "../types.js";
import { capturedHead, Frames, markRecall, runnerFilter } from "./common.js";

const COUNTS = /^\d+ examples?, \d+ failures?/;
/** A section that restates results: each of its lines is kept (pending entries in brief). */
const SECTION = /^(Pending:|Failures:|Failed examples:|An error occurred |Randomized with seed )/;

/** Whether the user chose a formatter other than progress or documentation (`-f j`, `--format json`). */
function otherFormatter(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = /^(--format|-f)$/.test(a) ? args[i + 1] : /^(?:--format=|-f)(.+)$/.exec(a)?.[1];
    if (value !== undefined && !/^(p|progress|d|doc|documentation)$/.test(value)) return true;
    if (/^(--out|-o)(=.*)?$/.test(a)) return true;
  }
  return false;
}

export const rspec = runnerFilter({
  id: "test.rspec",
  machine: otherFormatter,
  reader(ctx, out, args) {
    const printed = capturedHead();
    const frames = new Frames(out, "     ", ctx.recall, ctx.rawLine);
    let section: "listing" | "pending" | "other" = "listing";
    let listed = 0;

    const closeListing = () => {
      if (printed.hidden) out.push(omitted(printed.hidden, "lines of output", ctx.recall));
      printed.reset();
    };
    const line = (t: string) => {
      if (t.trim() === "") return;
      const head = SECTION.exec(t);
      if (head || COUNTS.test(t)) {
        frames.close();
        if (section === "listing") closeListing();
        section = t.startsWith("Pending:") ? "pending" : "other";
        // The pending header's aside is rspec's, not a result.
        return out.push(t.startsWith("Pending:") ? "Pending:" : t);
      }
      if (/^Finished in [\d.]+ \w+/.test(t)) return frames.close();
      if (section === "listing") {
        // Progress characters, and the documentation formatter's example lines and groups.
        if (/^[.FE*]+$/.test(t)) {
          listed += t.length;
          return;
        }
        if (/^\s*\S.*\((FAILED - \d+|PENDING: .*)\)$/.test(t) || (/^(\S|\s{2,}\S)/.test(t) && documentation(args))) {
          listed++;
          return;
        }
        if (printed.take()) out.push(t);
        return;
      }
      if (section === "pending") {
        // An entry's number and name, and its reason (the first `#` line); its details are in the recall entry.
        if (/^\s+\d+\) /.test(t)) return out.push(t);
        if (/^\s+# (?!\.\/|\/)/.test(t)) return out.push(t);
        return;
      }
      if (/^\s+\(compared using ==\)$/.test(t)) return;
      if (/^\s+\d+\) /.test(t)) frames.close();
      if (/^\s*# \S+:\d+(:in .*)?$/.test(t)) return frames.add(t);
      out.push(t);
    };
    return {
      line,
      close() {
        frames.close();
        if (section === "listing") closeListing();
      },
      get listed() {
        return listed;
      },
    };
  },
  finish(ctx, kept, [reader]) {
    const stdout = kept.out.withMarker("lines", ctx.recall);
    if (reader.listed) markRecall(stdout, COUNTS, ctx.recall);
    return { before: kept.err.withMarker("lines", ctx.recall), stdout };
  },
});

/** The documentation formatter: every example on a line of its own. */
function documentation(args: readonly string[]): boolean {
  return args.some((a, i) => /^(-fd|--format=d(oc|ocumentation)?|-fdoc(umentation)?)$/.test(a) || (/^(--format|-f)$/.test(a) && /^d(oc|ocumentation)?$/.test(args[i + 1] ?? "")));
}
