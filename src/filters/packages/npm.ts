// npm's install, ci, add, update and uninstall; `npm ls` and `pnpm list`;
// `npm outdated`; `npm audit`.
//
//   npm warn deprecated inflight@1.0.6: This module is not supported…
//   added 83 packages, and audited 84 packages
//   3 vulnerabilities (1 moderate, 2 high)
//   … +4 lines hidden (2 funding, 2 hint) [rtk recall 1a2b3c4]
//
// npm prints no package names on a successful install; what it prints about
// packages (deprecations, peer conflicts, errors) stays word for word, its
// verdict loses only the run's time. Notices, funding appeals (said in one
// line where a marker would cost more than they do), fetch and timing logs (`--loglevel http|timing|verbose`) and the advice lines that
// follow an audit summary are counted in the marker.
import { dialectFilter, treeLine, untimed, type Dialect, type Verdict } from "./common.js";
import { linesText, type Filter, type FilterRun } from "../types.js";
import { asksForData, tableFilter } from "./common.js";

const VERDICT = /^(?:added|removed|changed|up to date|audited) /;
const VULNERABILITIES = /^(?:found \d+ vulnerabilit|\d+ (?:\w+ severity )?vulnerabilit)/;
const LOG_NOISE = /^npm (http|timing|verbose|silly|info|sill) /;

export function npmDialect(): Dialect {
  let advice = false;
  return {
    read(text): Verdict | null {
      if (text.trim() === "") return "skip";
      if (text === "npm error" || text === "npm warn") return "skip";
      if (text.startsWith("npm notice")) return { drop: "notice" };
      const log = LOG_NOISE.exec(text);
      if (log) return { drop: log[1] === "http" ? "fetch" : "log" };
      // The funding appeal: counted with the other noise, or, where it would be put back, said in one line.
      const funding = /^(\d+ packages?) (?:is|are) looking for funding$/.exec(text);
      if (funding) return { drop: "funding", brief: `${funding[1]} looking for funding (npm fund)` };
      if (/^ {2}run `npm fund` for details$/.test(text)) return { drop: "funding", brief: "" };
      if (VERDICT.test(text)) {
        advice = false;
        return { summary: untimed(text) };
      }
      if (VULNERABILITIES.test(text)) {
        advice = true;
        return { summary: text };
      }
      // What follows an audit summary: `To address all issues, run:`, `  npm audit fix`, `Run \`npm audit\` for details.`
      if (advice && (/^To address /.test(text) || /^ {2}npm audit fix/.test(text) || /^Run `npm audit` for details\.$/.test(text) || /^Some issues need review/.test(text))) return { drop: "hint" };
      return null;
    },
  };
}

export const npmInstall: Filter = dialectFilter("packages.npm", npmDialect);

// ---------------------------------------------------------------- npm ls, pnpm list

/**
 * A dependency tree (`npm ls`, `npm ls --all`, `pnpm list --depth n`) as one
 * line per top-level package, its dependencies nested in parentheses:
 *
 *   fixture-app@1.0.0 /tmp/app
 *   express@4.21.2 (accepts@1.3.8 (mime-types@2.1.35 (mime-db@1.52.0)), body-parser@1.20.3 …)
 *
 * A package npm shows again where it is shared (`deduped`) is counted, not
 * repeated; problems (`extraneous`, `invalid: …`, `UNMET DEPENDENCY`) stay on
 * their package. Lines that are not in the tree (headings, errors) stay.
 */
export const packageTree: Filter = {
  id: "packages.tree",
  start(input, ctx): FilterRun {
    if (asksForData(input, ["--long", "-l", "-p"])) return { line() {}, end: () => null };
    interface Node {
      body: string;
      at: number;
      kids: Node[];
    }
    /** A section of pnpm's list (`dependencies:`): its packages, each with the tree under it, on one line. */
    interface Section {
      head: string;
      nodes: Node[];
    }
    const out: (string | Node | Section)[] = [];
    const err: string[] = [];
    const stack: Node[] = [];
    let deduped = 0;
    let section: Section | null = null;
    return {
      line(stream, text) {
        if (stream === "err") return void err.push(text);
        if (text.trim() === "") return;
        // pnpm's key to its markers, the same on every run.
        if (/^Legend: /.test(text)) return;
        const t = treeLine(text);
        if (t) {
          while (stack.length && stack[stack.length - 1]!.at >= t.at) stack.pop();
          // A package npm shows again where it is shared: its own tree is printed elsewhere.
          if (/ deduped$/.test(t.body)) return void deduped++;
          const node: Node = { body: t.body, at: t.at, kids: [] };
          if (stack.length) stack[stack.length - 1]!.kids.push(node);
          else if (section) section.nodes.push(node);
          else out.push(node);
          stack.push(node);
          return;
        }
        stack.length = 0;
        if (/^(?:dependencies|devDependencies|optionalDependencies|peerDependencies):$/.test(text)) {
          section = { head: text, nodes: [] };
          out.push(section);
          return;
        }
        if (section && /^\S+ \S+/.test(text) && !/:$/.test(text)) {
          const node: Node = { body: text, at: -1, kids: [] };
          section.nodes.push(node);
          stack.push(node);
          return;
        }
        section = null;
        out.push(text);
      },
      end() {
        const render = (n: Node): string => (n.kids.length ? `${n.body} (${n.kids.map(render).join(", ")})` : n.body);
        const lines = out.map((o) => (typeof o === "string" ? o : "head" in o ? `${o.head} ${o.nodes.map(render).join(", ")}` : render(o)));
        if (deduped) lines.push(`… +${deduped} ${deduped === 1 ? "line" : "lines"} hidden (${deduped} deduped) [rtk recall ${ctx.recall.id()}]`);
        return { stdout: linesText(lines), stderr: linesText(err.filter((l) => l !== "npm error")) };
      },
    };
  },
};

// ---------------------------------------------------------------- npm outdated

/**
 * `npm outdated`'s table as `name current → wanted (latest L)`, one package a
 * line; the location and dependent columns go (`--long` keeps them: passed).
 * Its exit code (1 when anything is outdated) is the tool's.
 */
export const npmOutdated: Filter = tableFilter("packages.outdated", ["--long", "-l"], {
  heading: (cells) => cells[0] === "Package" && cells.includes("Current"),
  row(cells, heading) {
    if (cells.length < 4) return undefined;
    const col = (name: string) => cells[heading.indexOf(name)] ?? "";
    const [current, wanted, latest] = [col("Current"), col("Wanted"), col("Latest")];
    return `${cells[0]} ${current} → ${wanted}${latest !== wanted ? ` (latest ${latest})` : ""}`;
  },
  end: (rows, other, headed) => (headed || other.length ? [...other, ...rows] : null),
});

// ---------------------------------------------------------------- npm audit

/**
 * `npm audit`'s report: each vulnerable package as one line (range, severity,
 * its advisories by GHSA id and title, what depends on it, the fix), then the
 * totals; the advice lines after them are counted.
 *
 *   lodash <=4.17.20 critical: Prototype Pollution in lodash (GHSA-p6mc-m468-83gw); … | fix available via `npm audit fix`
 */
export const npmAudit: Filter = dialectFilter("packages.audit", () => {
  let block: { head: string; parts: string[]; paths: number } | null = null;
  let advice = false;
  const flush = (): Verdict[] => {
    if (!block) return [];
    const b = block;
    block = null;
    return [{ keep: `${b.head}: ${b.parts.join("; ")}` }];
  };
  const d: Dialect = {
    read(text) {
      if (text === "# npm audit report") return { drop: "heading" };
      if (text.trim() === "") {
        const f = flush();
        return f.length ? f : "skip";
      }
      if (block) {
        const sev = /^Severity: (\w+)/.exec(text);
        if (sev) {
          block.head += ` ${sev[1]}`;
          return "skip";
        }
        // An advisory: its title and id (the address is github.com/advisories/<id>).
        const adv = /^(.*?) - https:\/\/github\.com\/advisories\/(GHSA-[\w-]+)$/.exec(text);
        if (adv) {
          block.parts.push(`${adv[1]} (${adv[2]})`);
          return "skip";
        }
        if (/^node_modules\//.test(text)) {
          if (block.paths++ === 0) block.parts.push(text);
          else return { drop: "path" };
          return "skip";
        }
        block.parts.push(text.trim());
        return "skip";
      }
      if (VULNERABILITIES.test(text)) {
        advice = true;
        return { summary: text };
      }
      if (advice && (/^To address /.test(text) || /^ {2}npm audit fix/.test(text) || /^Some issues need review/.test(text))) return { drop: "hint" };
      if (/^\S+ {2}\S/.test(text) && !text.startsWith("npm ")) {
        block = { head: text.replace(/ {2,}/, " "), parts: [], paths: 0 };
        return "skip";
      }
      return null;
    },
    finish: () => flush().map((verdict) => ({ stream: "out" as const, verdict })),
  };
  return d;
});
