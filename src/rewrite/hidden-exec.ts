// Text that a tool or the shell runs as a command although no rule can see it
// as one: git settings and environment variables naming a program, `find`'s
// actions, a `trap` body, arithmetic on a variable (bash evaluates the
// variable's value, `a[$(…)]` included). A command holding any of these is not
// attestable: no allow is earned from its text.
import type * as A from "../ast/nodes.js";

/** git settings that are safe to pass with `-c`: sections whose keys never name a program … */
const SAFE_GIT_SECTIONS = new Set([
  "add",
  "advice",
  "am",
  "apply",
  "blame",
  "branch",
  "checkout",
  "clean",
  "clone",
  "color",
  "column",
  "commit",
  "diff",
  "fetch",
  "format",
  "gc",
  "grep",
  "i18n",
  "index",
  "init",
  "log",
  "merge",
  "pack",
  "pretty",
  "pull",
  "push",
  "rebase",
  "rerere",
  "reset",
  "showbranch",
  "stash",
  "status",
  "tag",
  "user",
  "versionsort",
  "worktree",
]);
/** … except keys whose last part names a program, a file to load, or a transport that runs one. */
const EXEC_GIT_KEYS = /\.(command|cmd|textconv|driver|program|helper|editor|pager|sshcommand|external|clean|smudge|process|hookspath|askpass|fsmonitor|proxy|path|tool)$/;
/** The `core.` keys that are only about how files and text are read. */
const SAFE_CORE_KEYS = new Set([
  "quotepath",
  "autocrlf",
  "safecrlf",
  "eol",
  "abbrev",
  "filemode",
  "ignorecase",
  "whitespace",
  "precomposeunicode",
  "commentchar",
  "commentstring",
  "untrackedcache",
  "preloadindex",
  "checkstat",
  "trustctime",
  "compression",
  "bigfilethreshold",
  "logallrefupdates",
  "symlinks",
]);

/** Whether a git setting (`section[.sub].key`, any case) can make git run a program or load other settings. */
export function gitKeyRuns(key: string): boolean {
  const k = key.toLowerCase();
  const dot = k.indexOf(".");
  if (dot <= 0) return true;
  const section = k.slice(0, dot);
  if (section === "core") return !SAFE_CORE_KEYS.has(k.slice(dot + 1));
  return !SAFE_GIT_SECTIONS.has(section) || EXEC_GIT_KEYS.test(k);
}

/** Variables whose value a tool or the shell runs, or loads code from. */
const EXEC_VARIABLES = new Set([
  "GIT_EXTERNAL_DIFF",
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "GIT_PAGER",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "GIT_ASKPASS",
  "GIT_PROXY_COMMAND",
  "GIT_EXEC_PATH",
  "GIT_CONFIG",
  "GIT_CONFIG_GLOBAL",
  "GIT_CONFIG_SYSTEM",
  "GIT_CONFIG_PARAMETERS",
  "GIT_CONFIG_COUNT",
  "GIT_TEMPLATE_DIR",
  "PAGER",
  "MANPAGER",
  "EDITOR",
  "VISUAL",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "LESSOPEN",
  "LESSCLOSE",
  "BROWSER",
  "LD_PRELOAD",
  "LD_LIBRARY_PATH",
  "LD_AUDIT",
  "BASH_ENV",
  "ENV",
  "PROMPT_COMMAND",
  "PS4",
  "SHELLOPTS",
  "BASHOPTS",
  "NODE_OPTIONS",
  "PYTHONPATH",
  "PYTHONSTARTUP",
  "PERL5OPT",
  "PERL5LIB",
  "RUBYOPT",
  "RUBYLIB",
  "DYLD_INSERT_LIBRARIES",
]);

export function variableRuns(name: string): boolean {
  return EXEC_VARIABLES.has(name) || name.startsWith("GIT_CONFIG_KEY_") || name.startsWith("GIT_CONFIG_VALUE_") || name.startsWith("BASH_FUNC_");
}

/** Options by which a tool runs a command, or deletes or writes files, that its text does not show as one. */
const EXEC_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  find: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"],
  fd: ["-x", "--exec", "-X", "--exec-batch"],
  fdfind: ["-x", "--exec", "-X", "--exec-batch"],
  rg: ["--pre"],
  tar: ["--to-command", "--checkpoint-action", "-I", "--use-compress-program", "--rsh-command", "--info-script", "--new-volume-script", "-F"],
  rsync: ["-e", "--rsh", "--rsync-path"],
};

interface Setting {
  key: string | null;
  /** The value given with `-c key=value`; null for a value read elsewhere (`--config-env`, `git config`). */
  value: string | null;
}

const setting = (kv: string | null | undefined, withValue: boolean): Setting => {
  if (kv === null || kv === undefined) return { key: null, value: null };
  const eq = kv.indexOf("=");
  // `-c key` alone sets the key to true.
  if (eq < 0) return { key: kv, value: withValue ? "true" : null };
  return { key: kv.slice(0, eq), value: withValue ? kv.slice(eq + 1) : null };
};

/** The settings a git command line gives: its `-c`/`--config-env` options, and what `git config` stores. */
function gitSettings(argv: readonly (string | null)[]): Setting[] {
  const out: Setting[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i];
    if (w === null || w === undefined) return [...out, { key: null, value: null }];
    if (w === "-c" || w === "--config-env") {
      out.push(setting(argv[i + 1], w === "-c"));
      i++;
    } else if (w.startsWith("--config-env=")) {
      out.push(setting(w.slice("--config-env=".length), false));
    } else if (!w.startsWith("-")) {
      // `git config [--global] key value`: a setting stored for the commands that follow.
      if (w === "config") {
        const rest = argv.slice(i + 1);
        const key = rest.find((x) => x === null || !x.startsWith("-"));
        if (key !== undefined && rest.filter((x) => x === null || !x.startsWith("-")).length >= 2) out.push({ key, value: null });
        else if (rest.some((x) => x === "--add" || x === "--replace-all" || x === "set" || x === "--edit" || x === "-e")) out.push({ key: key ?? null, value: null });
      }
      return out;
    } else if (["-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--shallow-file", "--attr-source"].includes(w)) {
      i++;
    }
  }
  return out;
}

/** Why the words of a command (its argv from the command word on) run text no rule sees, or null. */
export function hiddenExecution(argv: readonly (string | null)[]): string | null {
  const first = argv[0];
  if (!first) return null;
  const tool = first.slice(first.lastIndexOf("/") + 1);
  if (tool === "git") {
    const runs = gitSettings(argv).find((x) => x.key === null || (gitKeyRuns(x.key) && !plainProgram(x.value)));
    if (runs !== undefined) return `a git setting that can run a program (${runs.key ?? "not literal"})`;
    return null;
  }
  if (tool === "trap") {
    const body = argv.slice(1).find((w) => w === null || !w.startsWith("-") || w === "-");
    // `trap - SIG` and `trap '' SIG` reset or ignore; anything else is code run later.
    if (body !== undefined && body !== "-" && body !== "" && argv.length > 2) return "a trap body";
    return null;
  }
  const opts = Object.hasOwn(EXEC_OPTIONS, tool) ? EXEC_OPTIONS[tool]! : null;
  if (opts && argv.some((w) => (w === null ? false : opts.some((o) => w === o || (o.startsWith("--") && w.startsWith(o + "=")))))) {
    return `\`${tool}\` runs a command or changes files through its options`;
  }
  return null;
}

const NAMES = /[A-Za-z_][A-Za-z0-9_]*/g;
/** Constants that read like names: hex, base#digits. */
const CONSTANTS = /\b0[xX][0-9a-fA-F]+\b|\b\d+#[0-9A-Za-z@_]+\b|\b\d+\b/g;

export interface VariableRead {
  name: string;
  at: number;
}

/** The variables an arithmetic text reads, with where (bash evaluates a variable's value as an expression, subscripts included). */
export function arithmeticReads(parts: readonly A.WordPart[], out: VariableRead[] = []): VariableRead[] {
  for (const p of parts) {
    switch (p.kind) {
      case "Lit":
      case "Escaped":
      case "SingleQuoted":
        for (const m of p.value.replace(CONSTANTS, (c) => " ".repeat(c.length)).matchAll(NAMES)) out.push({ name: m[0], at: p.span.start });
        break;
      case "ParamExp":
        out.push({ name: p.name, at: p.span.start });
        break;
      case "DoubleQuoted":
      case "LocaleQuoted":
        arithmeticReads(p.parts, out);
        break;
      case "ArithExp":
        arithmeticReads(p.expr.parts, out);
        break;
      default:
        // A substitution's value is read as an expression too: a name nobody assigned.
        out.push({ name: "", at: p.span.start });
        break;
    }
  }
  return out;
}

/** Names an arithmetic text assigns (`i=0`, `i++`, `n+=2`, `--i`): arithmetic always stores a number. */
export function arithmeticAssigns(parts: readonly A.WordPart[]): string[] {
  const text = parts.map((p) => (p.kind === "Lit" || p.kind === "Escaped" || p.kind === "SingleQuoted" ? p.value : " ")).join("");
  const out: string[] = [];
  // Each name is found once and what stands around it is looked at directly: no backtracking over a long name.
  for (const m of text.matchAll(NAMES)) {
    const before = text.slice(Math.max(0, m.index - 2), m.index);
    let k = m.index + m[0].length;
    while (text[k] === " " || text[k] === "\t") k++;
    const after = text.slice(k, k + 3);
    if (/^(\+\+|--)/.test(after) || /(\+\+|--)$/.test(before.trimEnd()) || /^([-+*/%&|^]|<<|>>)?=(?!=)/.test(after)) out.push(m[0]);
  }
  return out;
}

/** Values a program-naming variable may hold and run nothing hidden: the plain pagers, and no program. */
const PLAIN_PROGRAMS = new Set(["", "cat", "less", "more", "true", "false", ":", "tee"]);

/** A variable or setting whose value is a program that shows or does nothing more than it says. */
export function plainProgram(value: string | null): boolean {
  if (value === null) return false;
  const [cmd, ...args] = value.trim().split(/\s+/);
  return PLAIN_PROGRAMS.has(cmd ?? "") && args.every((a) => /^-[A-Za-z]+$/.test(a));
}
