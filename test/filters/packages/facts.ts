// The facts of a package manager's run, read from the raw output by code of
// their own (not the filters'): every package the tool named with a version
// (added, removed, changed, listed, outdated, vulnerable), every error and
// warning line, and the verdict's counts (`added 83 packages`, `3
// vulnerabilities (…)`, `2 upgraded, 2 newly installed`). A compact output
// keeps a package when one of its lines names it with each of its versions;
// a text when it holds it.
import { stripVTControlCharacters } from "node:util";
import type { ToolCase } from "../../support/replay.js";

export interface PackageFact {
  name: string;
  versions: string[];
}

export interface Facts {
  packages: PackageFact[];
  /** Text the compact output must hold as it is (an error, a warning, a count). */
  texts: string[];
}

const clean = (text: string) =>
  stripVTControlCharacters(text)
    .split("\n")
    .map((l) => l.replace(/\r$/, ""));

const both = (c: ToolCase) => [...clean(c.stdout), ...clean(c.stderr)];

type Reader = (c: ToolCase) => Facts;

const pkg = (name: string, ...versions: string[]): PackageFact => ({ name, versions: versions.filter(Boolean) });

/** Errors and warnings as the tool prefixes them, kept whole (empty prefixed lines say nothing). */
function prefixed(lines: readonly string[], re: RegExp): string[] {
  return lines.filter((l) => re.test(l) && l.replace(re, "").trim() !== "").map((l) => l.trim());
}

function npm(c: ToolCase): Facts {
  const lines = both(c);
  const sub = c.argv[1];
  const texts = prefixed(lines, /^npm (?:error|warn|ERR!|WARN)\b/);
  const packages: PackageFact[] = [];
  if (sub === "ls" || sub === "list") {
    for (const l of clean(c.stdout)) {
      const m = /[├└]\S*\s(?:UNMET (?:OPTIONAL )?DEPENDENCY )?(\S+)@(\S+)(.*)$/.exec(l);
      if (!m || / deduped$/.test(l)) continue;
      packages.push(pkg(m[1]!, m[2]!));
      if (/UNMET/.test(l)) texts.push(`UNMET DEPENDENCY ${m[1]}@${m[2]}`);
      if (/ extraneous$/.test(l)) texts.push(`${m[1]}@${m[2]} extraneous`);
      if (/ invalid: /.test(l)) texts.push(`${m[1]}@${m[2]}${m[3]}`);
    }
  } else if (sub === "outdated") {
    const rows = clean(c.stdout).slice(1).filter(Boolean);
    for (const r of rows) {
      const [name, current, wanted, latest] = r.trim().split(/\s+/);
      packages.push(pkg(name!, current!, wanted!, latest!));
    }
  } else if (sub === "audit") {
    for (const l of clean(c.stdout)) {
      const head = /^(\S+) {2}(\S.*)$/.exec(l);
      if (head && !l.startsWith("npm ")) packages.push(pkg(head[1]!, head[2]!.trim()));
      const sev = /^Severity: (\w+)/.exec(l);
      if (sev) texts.push(sev[1]!);
      const ghsa = /(GHSA-[\w-]+)/.exec(l);
      if (ghsa) texts.push(ghsa[1]!);
      if (/^\d+ vulnerabilit/.test(l) || /^found \d+ vulnerabilit/.test(l)) texts.push(l);
    }
  } else {
    for (const l of lines) {
      const m = /^(?:added|removed|changed|audited) \d+ packages?|^up to date/.exec(l);
      if (m) texts.push(m[0]);
      if (/^\d+ vulnerabilit|^found \d+ vulnerabilit/.test(l)) texts.push(l);
    }
  }
  return { packages, texts };
}

function pnpm(c: ToolCase): Facts {
  const lines = both(c);
  const texts = prefixed(lines, /^\s*(?:ERR_PNPM_\w+|WARN|ERROR)\b/);
  const packages: PackageFact[] = [];
  let section = false;
  for (const l of lines) {
    if (/^\w+:$/.test(l)) section = true;
    else if (l === "") section = false;
    const change = /^[+-] (\S+) (\S+)/.exec(l);
    if (change) packages.push(pkg(change[1]!, change[2]!));
    else if (section && c.argv[1] === "list") {
      const m = /^(?:[│├└─┬ ]+ )?(\S+) (\S+)$/.exec(l);
      if (m) packages.push(pkg(m[1]!, m[2]!));
    }
    const count = /^Packages: [+-]\d+/.exec(l);
    if (count) texts.push(count[0]);
  }
  return { packages, texts };
}

function yarn(c: ToolCase): Facts {
  const lines = both(c);
  const texts = [...prefixed(lines, /^(?:error|warning)\b/), ...lines.filter((l) => /^➤ YN(?!0000)\d+: /.test(l))];
  const packages: PackageFact[] = [];
  for (const l of lines) {
    const m = /^[├└]─ (@?[^@\s]+)@(\S+)$/.exec(l);
    if (m) packages.push(pkg(m[1]!, m[2]!));
    if (/^success /.test(l)) texts.push(l);
    // yarn 2+: `➤ YN0085: │ + express@npm:4.21.2, cors@npm:2.8.5, and 81 more.`
    const berry = /^➤ YN\d+: │ ([+-]) (.+?)(?:, and \d+ more)?\.$/.exec(l);
    if (berry) for (const p of berry[2]!.split(", ")) texts.push(p);
    const added = /^➤ YN\d+: │ (\d+ packages were (?:added|removed))/.exec(l);
    if (added) texts.push(added[1]!);
  }
  return { packages, texts };
}

function bun(c: ToolCase): Facts {
  const lines = both(c);
  const texts = prefixed(lines, /^(?:error|warn):/);
  const packages: PackageFact[] = [];
  for (const l of lines) {
    const m = /^\s*[+-] (@?[^@\s]+)@(\S+)/.exec(l);
    if (m) packages.push(pkg(m[1]!, m[2]!));
    const n = /^\s*(\d+ packages? installed)/.exec(l);
    if (n) texts.push(n[1]!);
  }
  return { packages, texts };
}

function pip(c: ToolCase): Facts {
  const lines = both(c);
  const texts = prefixed(lines, /^(?:ERROR|WARNING|DEPRECATION|error):?/);
  const packages: PackageFact[] = [];
  const sub = c.argv[1];
  if (sub === "list") {
    for (const l of clean(c.stdout).slice(2)) {
      const [name, version] = l.trim().split(/\s+/);
      if (name && version) packages.push(pkg(name, version));
    }
  } else if (sub === "freeze") {
    for (const l of clean(c.stdout)) if (l.trim()) texts.push(l.trim());
  } else {
    for (const l of lines) {
      const done = /^Successfully installed (.+)$/.exec(l);
      if (done) for (const w of done[1]!.split(" ")) texts.push(w);
      const gone = /Successfully uninstalled (\S+)$/.exec(l);
      if (gone) texts.push(gone[1]!);
      const top = /^Requirement already satisfied: (\S+) in \S+ \(([^)]+)\)$/.exec(l);
      if (top) packages.push(pkg(top[1]!, top[2]!));
    }
    // The head of a failed build's output: the exception it ended with.
    for (const l of lines) if (/^\s+\w+Error: /.test(l)) texts.push(l.trim());
  }
  return { packages, texts };
}

function uv(c: ToolCase): Facts {
  const lines = both(c);
  const texts = prefixed(lines, /^(?:error|warning):/);
  const packages: PackageFact[] = [];
  for (const l of lines) {
    const m = /^ [+\-~] (\S+?)==(\S+)/.exec(l);
    if (m) packages.push(pkg(m[1]!, m[2]!));
    const n = /^(?:Resolved|Installed|Uninstalled|Prepared) \d+ packages?/.exec(l);
    if (n) texts.push(n[0]);
    if (/^\s+(?:×|╰─▶)/.test(l)) texts.push(l.trim());
  }
  return { packages, texts };
}

function poetry(c: ToolCase): Facts {
  const lines = both(c);
  const texts = lines.filter((l) => /^Package operations: |^Installing the current project: /.test(l));
  const packages: PackageFact[] = [];
  for (const l of lines) {
    const m = /^\s*- \w+ (\S+) \((\S+)(?: -> (\S+))?\)/.exec(l);
    if (m) packages.push(pkg(m[1]!, m[2]!, m[3] ?? ""));
  }
  texts.push(...prefixed(lines, /^\s*(?:Because|Error|RuntimeError|SolverProblemError)\b/));
  return { packages, texts };
}

function cargo(c: ToolCase): Facts {
  const lines = both(c);
  const texts = prefixed(lines, /^(?:error|warning)(?:\[\w+\])?:/);
  const packages: PackageFact[] = [];
  for (const l of lines) {
    const up = /^\s+(?:Updating|Downgrading) (\S+) (v\S+) -> (v\S+)/.exec(l);
    if (up) packages.push(pkg(up[1]!, up[2]!, up[3]!));
    const add = /^\s+(?:Adding|Removing) (\S+) (v\S+)/.exec(l);
    if (add) packages.push(pkg(add[1]!, add[2]!));
    const dep = /^\s+Adding (\S+) \(local\) to/.exec(l);
    if (dep) texts.push(`Adding ${dep[1]} (local)`);
    const lock = /^\s+Locking \d+ packages?/.exec(l);
    if (lock) texts.push(lock[0].trim());
    if (/^\s+[+-] \w/.test(l)) texts.push(l.trim().replace(/^([+-]) /, "$1"));
    // cargo install: the crate, where the binary went, and the verdict.
    const inst = /^\s+Installing (\S+) (v\S+)/.exec(l);
    if (inst) packages.push(pkg(inst[1]!, inst[2]!));
    const bin = /^\s+(?:Installing|Replacing) (\/\S+)$/.exec(l);
    if (bin) texts.push(bin[1]!);
    if (/^\s+(?:Installed|Replaced) package /.test(l)) texts.push(l.trim());
  }
  return { packages, texts };
}

function go(c: ToolCase): Facts {
  const lines = both(c);
  const packages: PackageFact[] = [];
  const texts: string[] = [];
  for (const l of lines) {
    const found = /^go: found (\S+) in (\S+) (\S+)$/.exec(l);
    const changed = /^go: (?:added|upgraded|downgraded|removed) (\S+) (\S+)(?: => (\S+))?$/.exec(l);
    if (found) packages.push(pkg(found[2]!, found[3]!), pkg(found[1]!));
    else if (changed) packages.push(pkg(changed[1]!, changed[2]!, changed[3] ?? ""));
    else if (l.trim() && !/^go: (?:finding|downloading|extracting) /.test(l) && !/^# get /.test(l)) texts.push(l.trim());
  }
  return { packages, texts };
}

function apt(c: ToolCase): Facts {
  const lines = both(c);
  const texts = prefixed(lines, /^(?:E|W):/);
  const packages: PackageFact[] = [];
  for (const l of lines) {
    const inst = /^Inst (\S+)(?: \[([^\]]+)\])? \((\S+)/.exec(l);
    if (inst) packages.push(pkg(inst[1]!, inst[2] ?? "", inst[3]!));
    const conf = /^Conf (\S+) \((\S+)/.exec(l);
    if (conf) packages.push(pkg(conf[1]!, conf[2]!));
    const remv = /^(?:Remv|Purg) (\S+)(?: \[([^\]]+)\])?/.exec(l);
    if (remv) packages.push(pkg(remv[1]!, remv[2] ?? ""));
    const setup = /^Setting up (\S+) \(([^)]+)\)/.exec(l);
    if (setup) packages.push(pkg(setup[1]!, setup[2]!));
    if (/^\d+ upgraded, \d+ newly installed/.test(l) || / is already the newest version /.test(l)) texts.push(l);
  }
  return { packages, texts };
}

function bundle(c: ToolCase): Facts {
  const lines = both(c);
  const texts = lines.filter((l) => /^Bundle (?:complete|updated)!|^An error occurred|^Gem::\w+Error|^Could not find/.test(l));
  const packages: PackageFact[] = [];
  for (const l of lines) {
    const m = /^Installing (\S+) (\S+)/.exec(l);
    if (m) packages.push(pkg(m[1]!, m[2]!));
  }
  return { packages, texts };
}

function composer(c: ToolCase): Facts {
  const lines = both(c);
  const texts = lines.filter((l) => /^(?:Package operations|Lock file operations|Found \d+ security|No security vulnerability)/.test(l));
  texts.push(...prefixed(lines, /^\s*(?:Problem \d+|- Root composer\.json requires)/));
  const packages: PackageFact[] = [];
  for (const l of lines) {
    const m = /^\s*- (?:Installing|Updating|Upgrading|Downgrading|Removing) (\S+) \(([^)]+)\)/.exec(l);
    if (m) packages.push(pkg(m[1]!, ...m[2]!.split(" => ")));
  }
  return { packages, texts };
}

export const READERS: Readonly<Record<string, Reader>> = {
  npm,
  pnpm,
  yarn,
  bun,
  pip,
  uv,
  poetry,
  cargo,
  go,
  "apt-get": apt,
  apt,
  bundle,
  composer,
};

export function factsOf(c: ToolCase): Facts {
  const read = READERS[c.argv[0]!];
  if (!read) throw new Error(`no facts reader for ${c.argv[0]}`);
  return read(c);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The facts the compact output does not hold. */
export function lostFacts(compact: string, facts: Facts): string[] {
  const lines = clean(compact);
  const lost: string[] = [];
  for (const t of facts.texts) if (!compact.includes(t)) lost.push(`text: ${t}`);
  for (const p of facts.packages) {
    const name = new RegExp(`(?:^|[\\s(,:@])${escape(p.name)}(?=[\\s@=,:)-]|$)`);
    const has = lines.some((l) => name.test(l) && p.versions.every((v) => l.includes(v)));
    if (!has) lost.push(`package: ${p.name} ${p.versions.join(" ")}`);
  }
  return lost;
}

/** The facts alone, one a line: about the least an output that shows them all can be. */
export function factsText(f: Facts): string {
  return [...f.packages.map((p) => `${p.name} ${p.versions.join(" ")}`), ...f.texts].join("\n") + "\n";
}
