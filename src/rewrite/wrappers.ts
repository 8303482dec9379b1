// Wrappers run the command that follows them (`env A=1 git status`, `timeout 60
// npm test`); they are peeled to find the command word and stay in place. A
// wrapper option rtk does not know stops the peeling: the command is kept.
export type Values = readonly (string | null)[];

export interface Peeled {
  /** Index of the command word, after every wrapper. */
  commandIndex: number;
  /** A wrapper had an option rtk does not know (or a word it cannot read). */
  unknownOption: boolean;
  /** What `env` did to the environment. */
  envAssigns: string[];
  envClears: boolean;
  envUnsets: string[];
}

type Step = number | "unknown" | "standalone";

interface Effects {
  envAssigns: string[];
  envClears: boolean;
  envUnsets: string[];
}

const NAME_ASSIGN = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Skips options described as value options (`-s X`, `-sX`, `--signal=X`, `--signal X`) and flags. */
function options(v: Values, i: number, value: readonly string[], flags: readonly string[], refused: readonly string[] = []): number | "unknown" {
  for (;;) {
    const w = v[i];
    if (w === undefined) return i;
    if (w === null) return "unknown";
    if (w === "--") return i + 1;
    if (!w.startsWith("-") || w === "-") return i;
    if (refused.includes(w)) return "unknown";
    if (flags.includes(w)) {
      i++;
      continue;
    }
    const long = w.startsWith("--") ? w.slice(0, w.indexOf("=") > 0 ? w.indexOf("=") : w.length) : null;
    if (long && value.includes(long)) {
      i += w.includes("=") ? 1 : 2;
      continue;
    }
    const short = w.slice(0, 2);
    if (!long && value.includes(short)) {
      i += w.length > 2 ? 1 : 2;
      continue;
    }
    return "unknown";
  }
}

const after = (v: Values, i: number): Step => (i < v.length ? i : "standalone");

const WRAPPERS: Readonly<Record<string, (v: Values, i: number, fx: Effects) => Step>> = {
  env(v, i, fx) {
    for (;;) {
      const w = v[i];
      if (w === undefined) return "standalone";
      if (w === null) return "unknown";
      if (w === "-i" || w === "--ignore-environment" || w === "-") {
        fx.envClears = true;
        i++;
      } else if (w === "-u" || w === "--unset") {
        const n = v[i + 1];
        if (n === null || n === undefined) return "unknown";
        fx.envUnsets.push(n);
        i += 2;
      } else if (w.startsWith("--unset=")) {
        fx.envUnsets.push(w.slice(8));
        i++;
      } else if (w.startsWith("-u")) {
        fx.envUnsets.push(w.slice(2));
        i++;
      } else if (w === "--") {
        i++;
      } else if (NAME_ASSIGN.test(w)) {
        fx.envAssigns.push(w.slice(0, w.indexOf("=")));
        i++;
      } else if (w.startsWith("-")) {
        return "unknown";
      } else {
        return i;
      }
    }
  },
  // `command -p` looks the command up in a default PATH that need not hold rtk.
  command(v, i) {
    const j = options(v, i, [], [], ["-v", "-V", "-p"]);
    return j === "unknown" ? j : after(v, j);
  },
  builtin: (v, i) => after(v, i),
  noglob: (v, i) => after(v, i),
  nocorrect: (v, i) => after(v, i),
  time(v, i) {
    const j = options(v, i, [], ["-p"]);
    return j === "unknown" ? j : after(v, j);
  },
  exec(v, i, fx) {
    // `exec -c` runs the command with an empty environment, like `env -i`.
    for (let k = i; v[k]?.startsWith("-") && v[k] !== "--"; k++) {
      if (v[k] === "-a") k++;
      else if (/^-[a-z]*c/.test(v[k]!)) fx.envClears = true;
    }
    const j = options(v, i, ["-a"], ["-c", "-l", "-cl", "-lc"]);
    return j === "unknown" ? j : after(v, j);
  },
  timeout(v, i) {
    const j = options(v, i, ["-s", "--signal", "-k", "--kill-after"], ["--preserve-status", "--foreground", "-v", "--verbose"]);
    if (j === "unknown") return j;
    return j + 1 < v.length ? j + 1 : "standalone";
  },
  nice(v, i) {
    if (v[i] && /^-\d+$/.test(v[i]!)) i++;
    const j = options(v, i, ["-n", "--adjustment"], []);
    return j === "unknown" ? j : after(v, j);
  },
  ionice(v, i) {
    const j = options(v, i, ["-c", "--class", "-n", "--classdata"], ["-t", "--ignore"], ["-p", "--pid", "-P", "--pgid", "-u", "--uid"]);
    return j === "unknown" ? j : after(v, j);
  },
  stdbuf(v, i) {
    const j = options(v, i, ["-i", "--input", "-o", "--output", "-e", "--error"], []);
    return j === "unknown" ? j : after(v, j);
  },
  chrt(v, i) {
    const flags = ["-a", "--all-tasks", "-b", "--batch", "-d", "--deadline", "-e", "--ext", "-f", "--fifo", "-i", "--idle", "-o", "--other", "-r", "--rr", "-R", "--reset-on-fork", "-v", "--verbose"];
    const j = options(v, i, ["-T", "--sched-runtime", "-P", "--sched-period", "-D", "--sched-deadline"], flags, ["-p", "--pid", "-m", "--max", "-h", "--help"]);
    if (j === "unknown") return j;
    return j + 1 < v.length ? j + 1 : "standalone";
  },
  taskset(v, i) {
    const j = options(v, i, [], ["-c", "--cpu-list", "-a", "--all-tasks"], ["-p", "--pid"]);
    if (j === "unknown") return j;
    return j + 1 < v.length ? j + 1 : "standalone";
  },
};

export function peelWrappers(v: Values, prefixes: readonly (readonly string[])[] = []): Peeled {
  const fx: Effects = { envAssigns: [], envClears: false, envUnsets: [] };
  let i = 0;
  for (;;) {
    const w = v[i];
    if (w === null || w === undefined) break;
    const name = w.includes("/") ? w.slice(w.lastIndexOf("/") + 1) : w;
    // A prefix's first word may be called by its path.
    const prefix = prefixes.find((p) => p.length > 0 && p.every((pw, k) => (k === 0 ? name === pw || w === pw : v[i + k] === pw)));
    if (prefix) {
      if (i + prefix.length >= v.length) break;
      i += prefix.length;
      continue;
    }
    const wrapper = Object.hasOwn(WRAPPERS, name) ? WRAPPERS[name] : undefined;
    if (!wrapper) break;
    const next = wrapper(v, i + 1, fx);
    if (next === "standalone") break;
    if (next === "unknown") return { commandIndex: i, unknownOption: true, ...fx };
    i = next;
  }
  return { commandIndex: i, unknownOption: false, ...fx };
}
