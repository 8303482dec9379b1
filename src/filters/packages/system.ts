// apt-get/apt install|remove|upgrade (real and simulated), cargo add/update, cargo install,
// go mod tidy/download/get, bundle install/update, composer
// install/update/require.
//
//   The following NEW packages will be installed: nginx nginx-common
//   Inst: curl 7.88.1-10+deb12u14 → 7.88.1-10+deb12u15, nginx 1.22.1-9+deb12u11
//   2 upgraded, 2 newly installed, 0 to remove and 140 not upgraded.
//   … +8 lines hidden (3 reading, 5 Conf of Inst) [rtk recall 1a2b3c4]
//
// Each package the tool names with its version is kept once, gathered by
// what happens to it; the archive a version comes from, the database reads,
// downloads and unpack steps are counted.
import { asksForData, dialectFilter, untimed, type Dialect, type Verdict } from "./common.js";

/** apt's `(1.22.1-9+deb12u11 Debian:12.15/oldstable [amd64])`: the version alone. */
const aptVersion = (v: string) => v.split(" ")[0]!;

export function aptDialect(): Dialect {
  /** Packages an `Inst` line named: their `Conf` line says it again. */
  const installed = new Set<string>();
  /** A heading's package list (`The following NEW packages will be installed:` and its indented names), joined on one line. */
  let list: { head: string; names: string[] } | null = null;
  const closeList = (): Verdict[] => {
    if (!list) return [];
    const l = list;
    list = null;
    return [{ keep: `${l.head} ${l.names.join(" ")}` }];
  };
  return {
    read(text) {
      if (list && /^ {2}\S/.test(text)) {
        list.names.push(...text.trim().split(/\s+/));
        return "skip";
      }
      const held = closeList();
      const own = readLine(text) ?? { keep: text };
      return held.length ? [...held, own] : own;
    },
    finish: () => closeList().map((verdict) => ({ stream: "out" as const, verdict })),
  };

  function readLine(text: string): Verdict | null {
    if (text.trim() === "") return "skip";
    if (/^(?:Reading package lists|Building dependency tree|Reading state information)\.\.\.(?: Done)?$/.test(text)) return { drop: "reading" };
    if (/^\(Reading database \.\.\./.test(text) || /^Selecting previously unselected package /.test(text) || /^Preparing to unpack /.test(text) || /^Unpacking /.test(text)) return { drop: "unpack" };
    if (/^Get:\d+ /.test(text) || /^Fetched [\d,.]+ [kMG]?B in /.test(text) || /^Need to get /.test(text) || /^After this operation, /.test(text)) return { drop: "download" };
    if (/^Processing triggers for /.test(text)) return { drop: "triggers" };
    // A terminal's progress: `Progress: [ 40%] [#####.....]`, `0% [Working]`.
    if (/^Progress: \[\s*\d+%\]/.test(text) || /^\d+% \[/.test(text)) return { drop: "progress" };
    if (/^WARNING: apt does not have a stable CLI interface/.test(text)) return { drop: "warning (apt's CLI)" };
    if (/^(?:The following |Suggested packages:|Recommended packages:)/.test(text) && text.endsWith(":")) {
      list = { head: text, names: [] };
      return "skip";
    }
    const inst = /^Inst (\S+)(?: \[([^\]]+)\])? \(([^)]+)\)/.exec(text);
    if (inst) {
      installed.add(inst[1]!);
      return { change: "Inst", text: inst[2] ? `${inst[1]} ${inst[2]} → ${aptVersion(inst[3]!)}` : `${inst[1]} ${aptVersion(inst[3]!)}` };
    }
    const conf = /^Conf (\S+) \(([^)]+)\)/.exec(text);
    if (conf) return installed.has(conf[1]!) ? { drop: "Conf of Inst" } : { change: "Conf", text: `${conf[1]} ${aptVersion(conf[2]!)}` };
    const remv = /^(Remv|Purg) (\S+)(?: \[([^\]]+)\])?/.exec(text);
    if (remv) return { change: remv[1]!, text: remv[3] ? `${remv[2]} ${remv[3]}` : remv[2]! };
    const setup = /^Setting up (\S+) \(([^)]+)\) \.\.\.$/.exec(text);
    if (setup) return { change: "Setting up", text: `${setup[1]} ${setup[2]}` };
    const removing = /^Removing (\S+) \(([^)]+)\) \.\.\.$/.exec(text);
    if (removing) return { change: "Removing", text: `${removing[1]} ${removing[2]}` };
    if (/^\d+ upgraded, \d+ newly installed/.test(text) || /^\d+ not fully installed or removed\.$/.test(text)) return { summary: text };
    return null;
  }
}

export const aptInstall = dialectFilter("packages.apt", aptDialect, () => false);

/** cargo add/update/remove: its right-aligned status words (`Adding`, `Updating x v1 -> v2`, `Locking`) and the features under an added crate. */
export function cargoDialect(): Dialect {
  let features: { on: string[]; off: string[] } | null = null;
  const closeFeatures = (): Verdict[] => {
    if (!features) return [];
    const f = features;
    features = null;
    return [{ keep: `  features: ${[...f.on.map((x) => `+${x}`), ...f.off.map((x) => `-${x}`)].join(" ")}` }];
  };
  return {
    read(text) {
      if (features) {
        const f = /^\s+([+-]) (\S+)$/.exec(text);
        if (f) {
          (f[1] === "+" ? features.on : features.off).push(f[2]!);
          return "skip";
        }
      }
      const held = closeFeatures();
      const own = readLine(text) ?? { keep: text };
      return held.length ? [...held, own] : own;
    },
    finish: () => closeFeatures().map((verdict) => ({ stream: "err" as const, verdict })),
  };

  function readLine(text: string): Verdict | null {
    if (text.trim() === "") return "skip";
    if (/^\s+Updating (?:crates\.io index|git repository|`[^`]+` index)/.test(text) || /^\s+(?:Downloading|Downloaded) /.test(text)) return { drop: "index" };
    if (/^\s+Features( as of v\S+)?:$/.test(text)) {
      features = { on: [], off: [] };
      return "skip";
    }
    const up = /^\s+(Updating|Downgrading) (\S+) (v\S+) -> (v\S+)(.*)$/.exec(text);
    if (up) return { change: up[1]!, text: `${up[2]} ${up[3]} -> ${up[4]}${up[5]}` };
    const addRm = /^\s+(Adding|Removing) (\S+) (v\S+)(.*)$/.exec(text);
    if (addRm && !/ to (?:dev-|build-)?dependencies/.test(text) && !/ from (?:dev-|build-)?dependencies/.test(text)) return { change: addRm[1]!, text: `${addRm[2]} ${addRm[3]}${addRm[4]}` };
    if (/^\s+Unchanged /.test(text)) return { drop: "unchanged" };
    if (/^\s+Locking \d+ packages?/.test(text)) return { summary: text.trim() };
    if (/^\s+(?:Adding|Removing) \S+ .*(?:to|from) (?:dev-|build-|optional )?dependencies/.test(text)) return { keep: text.trim() };
    return null;
  }
}

export const cargoPackages = dialectFilter("packages.cargo", cargoDialect);

/**
 * cargo install: the index and downloads counted, each crate it compiles
 * counted (`Compiling x v1`), what it installed or replaced gathered, cargo's
 * verdict (`Installed package …`, `Replaced package …`, `Finished …`) at the
 * end; warnings, errors and a compiler's diagnostics stay as printed.
 */
export function cargoInstallDialect(): Dialect {
  return {
    read(text): Verdict | null {
      if (text.trim() === "") return "skip";
      if (/^\s+Updating (?:crates\.io index|git repository|`[^`]+` index)/.test(text) || /^\s+(?:Downloading|Downloaded) /.test(text) || /^\s+Locking \d+ packages?/.test(text))
        return { drop: "index" };
      if (/^\s+Compiling \S+ v\S+/.test(text)) return { drop: "compile" };
      const pkg = /^\s+Installing (\S+ v\S+)(?: \((.+)\))?$/.exec(text);
      if (pkg) return { change: "installing", text: pkg[2] ? `${pkg[1]} (${pkg[2]})` : pkg[1]! };
      const bin = /^\s+(Installing|Replacing) (\/\S+)$/.exec(text);
      if (bin) return { change: bin[1] === "Installing" ? "binary" : "replacing", text: bin[2]! };
      if (/^\s+(?:Installed|Replaced) package /.test(text) || /^\s+Finished /.test(text) || /^\s+Ignored package /.test(text)) return { summary: text.trim() };
      return null;
    },
  };
}

export const cargoInstall = dialectFilter("packages.cargo.install", cargoInstallDialect);

/** go mod/get: `go: finding …` and `go: downloading …` are counted; `go: added x v1` and `go: found x in y v1` are gathered; errors stay. */
export function goDialect(): Dialect {
  return {
    read(text): Verdict | null {
      if (text.trim() === "") return "skip";
      if (/^go: finding module for package /.test(text) || /^go: (?:downloading|extracting) /.test(text) || /^# get https?:\/\//.test(text) || /^(?:mkdir|cd|unzip|git) /.test(text))
        return { drop: "fetch" };
      const found = /^go: found (\S+) in (\S+) (\S+)$/.exec(text);
      if (found) return { change: "found", text: `${found[1]} in ${found[2]} ${found[3]}` };
      const changed = /^go: (added|upgraded|downgraded|removed) (\S+) (\S+)(?: => (\S+))?$/.exec(text);
      if (changed) return { change: changed[1]!, text: `${changed[2]} ${changed[3]}${changed[4] ? ` → ${changed[4]}` : ""}` };
      return null;
    },
  };
}

export const goModules = dialectFilter("packages.go", goDialect, (input) => asksForData(input, ["-json"]));

/** bundle install/update: `Installing x 1.0` gathered, `Using x 1.0` counted (unchanged), fetch lines counted; the verdict stays. */
export function bundleDialect(): Dialect {
  return {
    read(text): Verdict | null {
      if (text.trim() === "") return "skip";
      if (/^(?:Fetching gem metadata|Fetching source index|Resolving dependencies\.\.\.|Fetching (?!gem metadata|source index)\S+ \S+)/.test(text)) return { drop: "fetch" };
      if (/^Using \S+ \S+/.test(text)) return { drop: "unchanged (Using)" };
      const inst = /^Installing (\S+) (\S+)(.*)$/.exec(text);
      if (inst) return { change: "installed", text: `${inst[1]} ${inst[2]}${inst[3]}` };
      const upd = /^(?:Updating|Installing) (\S+) (\S+) \(was (\S+)\)$/.exec(text);
      if (upd) return { change: "updated", text: `${upd[1]} ${upd[3]} → ${upd[2]}` };
      if (/^Bundle (?:complete|updated)!/.test(text)) return { summary: text };
      if (/^Use `bundle info \[gemname\]`/.test(text)) return { drop: "hint" };
      return null;
    },
  };
}

export const bundleInstall = dialectFilter("packages.bundle", bundleDialect);

/** composer install/update/require/remove: `- Installing vendor/name (v1.0): Extracting archive` gathered, downloads and funding counted. */
export function composerDialect(): Dialect {
  return {
    read(text): Verdict | null {
      if (text.trim() === "") return "skip";
      if (/^\s*- Downloading /.test(text) || /^\s*\d+\/\d+ \[[=>-]*\]\s+\d+%$/.test(text)) return { drop: "download" };
      if (/^\d+ packages? you are using (?:is|are) looking for funding\.$/.test(text) || /^Use the `composer fund` command/.test(text)) return { drop: "funding" };
      if (/^(?:Loading composer repositories|Verifying lock file contents|Generating (?:optimized )?autoload files|Updating dependencies$|Writing lock file$|> \S)/.test(text)) return { drop: "step" };
      const op = /^\s*- (Installing|Updating|Downgrading|Removing|Upgrading|Locking) (\S+) \(([^)]+)\)(?:: .*)?$/.exec(text);
      if (op) return op[1] === "Locking" ? { drop: "lock" } : { change: op[1]!.toLowerCase(), text: `${op[2]} ${op[3]!.replace(" => ", " → ")}` };
      if (/^(?:Package operations: |Lock file operations: |Nothing to install, update or remove|No security vulnerability advisories found|Found \d+ security vulnerability)/.test(text))
        return { summary: untimed(text) };
      return null;
    },
  };
}

export const composerInstall = dialectFilter("packages.composer", composerDialect);
