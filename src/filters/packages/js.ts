// pnpm, yarn (classic and berry) and bun: install, add, remove, update.
//
//   Packages: +83
//   dependencies added: body-parser 1.20.3, cookie-parser 1.4.7
//   Done using pnpm v9.15.9
//   … +7 progress lines and 1 newer-version note hidden [rtk recall 1a2b3c4]
//
// Every package the tool names with a version is kept, gathered by what
// happened to it; progress, step and resolution lines, and the newer
// versions pnpm mentions beside a package, are counted.
import { dialectFilter, untimed, type Dialect, type Verdict } from "./common.js";

export function pnpmDialect(): Dialect {
  let section = "";
  return {
    read(text): Verdict | null {
      if (text.trim() === "") return "skip";
      if (/^Progress: resolved \d+/.test(text)) return { drop: "progress" };
      // The bar of `+` and `-` under `Packages: +83` draws the same count: progress too.
      if (/^[+-]+$/.test(text)) return { drop: "progress" };
      if (/^(?:Lockfile is up to date|Already up to date|Packages: [+-]\d+)/.test(text)) return { summary: text };
      if (/^Done in /.test(text)) return { summary: untimed(text) };
      const sec = /^(dependencies|devDependencies|optionalDependencies|peerDependencies):$/.exec(text);
      if (sec) {
        section = sec[1]!;
        return "skip";
      }
      const change = /^([+-]) (\S+) (\S.*)$/.exec(text);
      if (change && section) {
        const what = `${section} ${change[1] === "+" ? "added" : "removed"}`;
        // `+ cors 2.8.5 (2.8.6 is available)`: the newer version is an aside to the install (`pnpm outdated` lists them).
        const aside = /^(\S+) (\(\S+ is available\))$/.exec(change[3]!);
        return aside ? { change: what, text: `${change[2]} ${aside[1]}`, note: aside[2]!, noteKind: "newer-version" } : { change: what, text: `${change[2]} ${change[3]}` };
      }
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
      // yarn's own log of the run (its banner, numbered steps, info lines): one kind, so the marker stays short.
      if (/^yarn (?:install|add|remove|upgrade|up) v\d/.test(text)) return { drop: "log" };
      if (/^\[\d\/\d\] /.test(text) || /^[➤] YN0000: (?:┌|└|│)/.test(text)) return { drop: "log" };
      if (/^info Visit https:\/\/yarnpkg/.test(text) || /^info (?:No lockfile found|Lockfile is up to date)/.test(text)) return { drop: "log" };
      if (text === "info Direct dependencies") return ((list = "direct"), "skip");
      if (text === "info All dependencies") return ((list = "all"), "skip");
      const entry = /^[├└]─ (.+)$/.exec(text);
      if (entry && list) return { change: list === "direct" ? "direct dependencies" : "all dependencies", text: entry[1]! };
      list = null;
      if (/^Done in /.test(text) || /^success /.test(text)) return { summary: untimed(text) };
      // yarn 2+: `➤ YN0000: · Done in 1s 234ms`, resolution/fetch/link steps.
      if (/^➤ YN0000: ·? ?Done/.test(text)) return { summary: untimed(text) };
      if (/^➤ YN0000: /.test(text)) return { drop: "log" };
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
