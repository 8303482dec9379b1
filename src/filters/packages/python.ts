// pip install/uninstall, pip list/freeze, uv (sync, add, remove, pip
// install), poetry (install, add, update, remove).
//
//   already satisfied: app 1.0.0
//   Successfully installed app-1.0.0 leaf-00-1.0.0 mid-0-2.0.0
//   … +41 lines hidden (40 download, 1 index) [rtk recall 1a2b3c4]
//
// pip's own verdict (`Successfully installed …`) holds every name and version
// and stays as it is; the collecting, downloading, building and
// already-satisfied lines of dependencies are counted. Errors (a requirement
// no version satisfies, a failed build with its output) stay whole.
import { dialectFilter, tableFilter, untimed, type Dialect, type Verdict } from "./common.js";
import type { Filter } from "../types.js";

export function pipDialect(): Dialect {
  return {
    read(text): Verdict | null {
      if (text.trim() === "") return "skip";
      if (/^Looking in (?:links|indexes): /.test(text)) return { drop: "index" };
      if (/^\s*(?:Collecting |Processing |Downloading |Using cached |Obtaining |File was already downloaded)/.test(text)) return { drop: "download" };
      // pip's progress bar, once the terminal form has taken it to its end: `   ━━━━━━━━ 1.2/1.2 MB 3.4 MB/s eta 0:00:00`.
      if (/^\s*[━╸╺\-]+ [\d.]+\/[\d.]+ [kMG]?B /.test(text)) return { drop: "progress" };
      if (
        /^\s*(?:Preparing metadata|Getting requirements to build|Installing build dependencies|Building wheel|Building wheels for collected|Created wheel for|Stored in directory|Successfully built|Running setup\.py|Installing backend dependencies)/.test(
          text,
        )
      )
        return { drop: "build" };
      if (/^Installing collected packages: /.test(text)) return { drop: "collected" };
      if (/^\s*(?:Attempting uninstall: |Found existing installation: |Uninstalling \S+:$)/.test(text)) return { drop: "uninstall step" };
      const gone = /^\s*Successfully uninstalled (\S+)$/.exec(text);
      if (gone) return { change: "Successfully uninstalled", text: gone[1]! };
      const have = /^Requirement already satisfied: (\S+) in \S+(?: \(from ([^)]*)\))? \(([^)]+)\)$/.exec(text);
      if (have) return have[2] ? { drop: "already satisfied" } : { change: "already satisfied", text: `${have[1]} ${have[3]}` };
      if (/^INFO: pip is looking at multiple versions/.test(text)) return { drop: "backtracking" };
      if (/^\[notice\] /.test(text)) return { drop: "notice" };
      if (/^Successfully installed /.test(text)) return { summary: text };
      return null;
    },
  };
}

export const pipInstall: Filter = dialectFilter("packages.pip", pipDialect);

/**
 * `pip list` as `N packages: name version, …` (the table's heading and
 * padding go); `--outdated` rows as `name version → latest`. A format the
 * user asked for (`--format json`, `--format freeze`) passes.
 */
export const pipList: Filter = tableFilter("packages.pip-list", ["--format=freeze", "--format=columns", "--format=legacy"], {
  heading: (cells) => cells[0] === "Package" && cells[1] === "Version",
  row(cells, heading) {
    if (/^-+$/.test(cells[0]!)) return null;
    if (cells.length < 2) return undefined;
    const latest = heading.indexOf("Latest");
    let row = `${cells[0]} ${cells[1]}`;
    if (latest >= 0 && cells[latest]) row += ` → ${cells[latest]}`;
    // An editable project's location, or an outdated row's type: kept after the version.
    else if (cells.length > 2) row += ` (${cells.slice(2).join(" ")})`;
    return row;
  },
  end(items, other) {
    if (!items.length && !other.length) return null;
    const n = items.length;
    const list = n ? [`${n} ${n === 1 ? "package" : "packages"}: ${items.join(", ")}`] : [];
    return [...other, ...list];
  },
});

/** uv: its resolver and installer lines (`Resolved 12 packages in 1.2s`) keep their counts; ` + name==1.0` lines are gathered. */
export function uvDialect(): Dialect {
  return {
    read(text): Verdict | null {
      if (text.trim() === "") return "skip";
      if (/^\s*(?:Downloading|Downloaded|Building|Built|Preparing packages|Using (?:CPython|Python)) /.test(text) || /^Creating virtual environment at:/.test(text)) return { drop: "progress" };
      if (/^(?:Resolved|Prepared|Installed|Uninstalled|Audited|Updated|Removed) \d+ packages?/.test(text)) return { summary: untimed(text) };
      const change = /^ ([+\-~]) (\S+?)==(\S+)(.*)$/.exec(text);
      if (change) return { change: change[1] === "+" ? "added" : change[1] === "-" ? "removed" : "reinstalled", text: `${change[2]}==${change[3]}${change[4]}` };
      const moved = /^ ([+\-~]) (\S+) (\S.*)$/.exec(text);
      if (moved) return { change: moved[1] === "+" ? "added" : moved[1] === "-" ? "removed" : "reinstalled", text: `${moved[2]} ${moved[3]}` };
      return null;
    },
  };
}

export const uvInstall: Filter = dialectFilter("packages.uv", uvDialect);

/** poetry: `  - Installing name (1.0)` / `  - Updating name (1.0 -> 2.0)` / `  - Removing name (1.0)` gathered; its headings and verdicts stay. */
export function poetryDialect(): Dialect {
  return {
    read(text): Verdict | null {
      if (text.trim() === "") return "skip";
      if (/^(?:Updating dependencies|Resolving dependencies\.\.\.|Writing lock file|Creating virtualenv |Using virtualenv: )/.test(text)) return { drop: "progress" };
      // Poetry 1.x redraws an operation in place on a terminal: its pending states end in `Pending…`, `Downloading… 40%`.
      const op = /^\s*[-•] (Installing|Updating|Downgrading|Removing|Skipping) (\S+) \(([^)]+)\)(.*)$/.exec(text);
      if (op) {
        if (/: (?:Pending|Downloading|Preparing|Installing)\.*$/.test(op[4]!) || / \d+%$/.test(op[4]!)) return { drop: "progress" };
        const rest = op[4]!.replace(/^:\s*/, "").trim();
        return { change: op[1]!.toLowerCase(), text: rest ? `${op[2]} ${op[3]} ${rest}` : `${op[2]} ${op[3]}` };
      }
      if (/^(?:Package operations: |Installing the current project: |No dependencies to install or update)/.test(text)) return { summary: text };
      return null;
    },
  };
}

export const poetryInstall: Filter = dialectFilter("packages.poetry", poetryDialect);
