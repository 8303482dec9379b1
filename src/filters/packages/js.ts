// pnpm, yarn (classic and berry) and bun: install, add, remove, update.
//
//   Packages: +83
//   dependencies added: body-parser 1.20.3 (2.4.0 is available), cookie-parser 1.4.7
//   Done using pnpm v9.15.9
//   … +7 lines hidden (6 progress, 1 bar) [rtk recall 1a2b3c4]
//
// Every package the tool names with a version is kept, gathered by what
// happened to it; progress, step and resolution lines are counted.
import { dialectFilter, untimed, type Dialect, type Verdict } from "./common.js";

export function pnpmDialect(): Dialect {
  let section = "";
  return {
    read(text): Verdict | null {
      if (text.trim() === "") return "skip";
      if (/^Progress: resolved \d+/.test(text)) return { drop: "progress" };
      if (/^[+-]+$/.test(text)) return { drop: "bar" };
      if (/^(?:Lockfile is up to date|Already up to date|Packages: [+-]\d+)/.test(text)) return { summary: text };
      if (/^Done in /.test(text)) return { summary: untimed(text) };
      const sec = /^(dependencies|devDependencies|optionalDependencies|peerDependencies):$/.exec(text);
      if (sec) {
        section = sec[1]!;
        return "skip";
      }
      const change = /^([+-]) (\S+) (\S.*)$/.exec(text);
      if (change && section) return { change: `${section} ${change[1] === "+" ? "added" : "removed"}`, text: `${change[2]} ${change[3]}` };
      if (/^(?:Resolving|Downloading|Fetching) /.test(text) || /^\s*(?:\.|node_modules\/\S+)\s+(?:preinstall|install|postinstall)\$/.test(text)) return { drop: "progress" };
      return null;
    },
  };
}

export function yarnDialect(): Dialect {
  let list: "direct" | "all" | null = null;
  return {
    read(text): Verdict | null {
      if (text.trim() === "") return "skip";
      if (/^yarn (?:install|add|remove|upgrade|up) v\d/.test(text)) return { drop: "banner" };
      if (/^\[\d\/\d\] /.test(text) || /^[➤] YN0000: (?:┌|└|│)/.test(text)) return { drop: "step" };
      if (/^info Visit https:\/\/yarnpkg/.test(text) || /^info (?:No lockfile found|Lockfile is up to date)/.test(text)) return { drop: "info" };
      if (text === "info Direct dependencies") return ((list = "direct"), "skip");
      if (text === "info All dependencies") return ((list = "all"), "skip");
      const entry = /^[├└]─ (.+)$/.exec(text);
      if (entry && list) return { change: list === "direct" ? "direct dependencies" : "all dependencies", text: entry[1]! };
      list = null;
      if (/^Done in /.test(text) || /^success /.test(text)) return { summary: untimed(text) };
      // yarn 2+: `➤ YN0000: · Done in 1s 234ms`, resolution/fetch/link steps.
      if (/^➤ YN0000: ·? ?Done/.test(text)) return { summary: untimed(text) };
      if (/^➤ YN0000: /.test(text)) return { drop: "step" };
      return null;
    },
  };
}

export function bunDialect(): Dialect {
  return {
    read(text): Verdict | null {
      if (text.trim() === "") return "skip";
      if (/^bun (?:install|add|remove|update) v\d/.test(text)) return { drop: "banner" };
      if (/^(?:Resolving dependencies|Resolved, downloaded and extracted|Saved lockfile)/.test(text)) return { drop: "progress" };
      const change = /^\s*([+-]) (\S+?)@(\S+)(.*)$/.exec(text);
      if (change) return { change: change[1] === "+" ? "added" : "removed", text: `${change[2]} ${change[3]}${change[4]}` };
      if (/^\s*\d+ packages? (?:installed|removed)/.test(text) || /^Checked \d+ install/.test(text) || /^\s*(?:installed|removed) /.test(text)) return { summary: untimed(text.trim()) };
      return null;
    },
  };
}

export const pnpmInstall = dialectFilter("packages.pnpm", pnpmDialect);
export const yarnInstall = dialectFilter("packages.yarn", yarnDialect);
export const bunInstall = dialectFilter("packages.bun", bunDialect);
