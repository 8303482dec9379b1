// Where a real host runs: as an unprivileged user (hosts refuse some modes to
// root, and a sandbox only means something for another user), in a scratch
// HOME holding a git repository, with rtk on the user's PATH through a link.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { dirname, join } from "node:path";
import { RTK } from "../../support/launch.js";

export const SANDBOX_USER = "rtk-host";

export interface Account {
  uid: number;
  gid: number;
  name: string;
}

let account: Account | undefined;

/** The user hosts run as: `rtk-host` (made once) when the tests run as root, else the current user. */
export function hostAccount(): Account {
  if (account) return account;
  const me = userInfo();
  if (me.uid !== 0) return (account = { uid: me.uid, gid: me.gid, name: me.username });
  const id = () => spawnSync("id", ["-u", SANDBOX_USER], { encoding: "utf8" });
  let r = id();
  if (r.status !== 0) {
    const made = spawnSync("useradd", ["--system", "--shell", "/bin/bash", "--no-create-home", "--home-dir", "/nonexistent", SANDBOX_USER], { encoding: "utf8" });
    if (made.status !== 0 && !/already exists/.test(made.stderr)) throw new Error(`useradd ${SANDBOX_USER}: ${made.stderr}`);
    r = id();
  }
  const uid = Number(r.stdout.trim());
  const gid = Number(spawnSync("id", ["-g", SANDBOX_USER], { encoding: "utf8" }).stdout.trim());
  return (account = { uid, gid, name: SANDBOX_USER });
}

export interface Scratch {
  root: string;
  home: string;
  /** The git repository the agent works in. */
  repo: string;
  /** A folder on the user's PATH that holds the `rtk` link (when rtk is installed). */
  bin: string;
  /** The environment every process of the session starts from. */
  env: Record<string, string>;
  account: Account;
  /** Writes a file under the scratch folder, owned by the sandbox user. */
  put(path: string, text: string): void;
  /** Writes the JSON file at `path` with `defaults` under the keys it already holds (rtk's entries, say): theirs win. */
  mergeJson(path: string, defaults: Record<string, unknown>): void;
  /** Runs a command as the sandbox user in the repository. */
  run(cmd: string, args: readonly string[], opts?: { env?: Record<string, string>; cwd?: string; input?: string }): { status: number | null; stdout: string; stderr: string };
  dispose(): void;
}

const SYSTEM_PATH = "/usr/local/bin:/usr/bin:/bin";

/**
 * A fresh HOME with a small committed repository; `rtk` linked onto PATH unless
 * `withRtk` is false. `base` is the folder it is made in (default: the system's
 * temp folder; a host whose sandbox lets commands write to /tmp needs a HOME
 * outside it to be tested as it runs for a user).
 */
export function scratch(opts: { withRtk: boolean; files?: Record<string, string>; base?: string }): Scratch {
  const acct = hostAccount();
  if (opts.base) mkdirSync(opts.base, { recursive: true, mode: 0o755 });
  const root = mkdtempSync(join(opts.base ?? tmpdir(), "rtk-real-host-"));
  chmodSync(root, 0o755);
  const home = join(root, "home");
  const repo = join(home, "work", "app");
  const bin = join(home, ".local", "bin");
  mkdirSync(repo, { recursive: true });
  mkdirSync(bin, { recursive: true });
  if (opts.withRtk) symlinkSync(RTK, join(bin, "rtk"));
  const env: Record<string, string> = {
    HOME: home,
    USER: acct.name,
    LOGNAME: acct.name,
    SHELL: "/bin/bash",
    PATH: `${bin}:${dirname(process.execPath)}:${SYSTEM_PATH}`,
    LANG: "C.UTF-8",
    TERM: "dumb",
    TMPDIR: join(root, "tmp"),
    XDG_CONFIG_HOME: join(home, ".config"),
    XDG_DATA_HOME: join(home, ".local", "share"),
    XDG_CACHE_HOME: join(home, ".cache"),
    GIT_CONFIG_NOSYSTEM: "1",
    // The scratch repository's outputs are short, which rtk prints as they are: compacted here,
    // what the model received shows whose output it was.
    RTK_PASSTHROUGH_TOKENS: "0",
  };
  mkdirSync(env["TMPDIR"]!, { recursive: true });
  const files: Record<string, string> = {
    "README.md": "# app\n\nA small project.\n",
    "f1.txt": "alpha\nbeta\ngamma\n",
    "src/main.js": 'console.log("hello");\n',
    "src/util.js": "export const add = (a, b) => a + b;\n",
    "notes/todo.txt": "one\ntwo\nthree\n",
    ...opts.files,
  };
  for (const [p, text] of Object.entries(files)) {
    mkdirSync(dirname(join(repo, p)), { recursive: true });
    writeFileSync(join(repo, p), text);
  }
  writeFileSync(join(home, ".gitconfig"), "[user]\n\tname = Dev\n\temail = dev@example.com\n[init]\n\tdefaultBranch = main\n");
  const chown = () => spawnSync("chown", ["-R", `${acct.uid}:${acct.gid}`, root]);
  chown();
  const s: Scratch = {
    root,
    home,
    repo,
    bin,
    env,
    account: acct,
    put(path, text) {
      mkdirSync(dirname(path), { recursive: true });
      writeFileSync(path, text);
      chown();
    },
    mergeJson(path, defaults) {
      let doc: Record<string, unknown> = {};
      try {
        doc = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
      } catch {
        doc = {};
      }
      s.put(path, JSON.stringify({ ...defaults, ...doc }, null, 2));
    },
    run(cmd, args, o = {}) {
      const r = spawnSync(cmd, args, { cwd: o.cwd ?? repo, env: { ...env, ...o.env }, uid: acct.uid, gid: acct.gid, encoding: "utf8", input: o.input, timeout: 120_000 });
      return { status: r.status, stdout: r.stdout ?? "", stderr: (r.stderr ?? "") + (r.error ? String(r.error) : "") };
    },
    dispose() {
      rmSync(root, { recursive: true, force: true });
    },
  };
  const git = (...a: string[]) => {
    const r = s.run("git", a);
    if (r.status !== 0) throw new Error(`git ${a.join(" ")}: ${r.stderr}`);
  };
  git("init", "-q");
  git("add", ".");
  git("commit", "-qm", "initial");
  // A second commit and a change in the work tree, so log, diff and status have something to say.
  s.put(join(repo, "src", "util.js"), "export const add = (a, b) => a + b;\nexport const sub = (a, b) => a - b;\n");
  git("commit", "-qam", "sub");
  s.put(join(repo, "f1.txt"), "alpha\nbeta\ngamma\ndelta\n");
  s.put(join(repo, "new.txt"), "untracked\n");
  return s;
}
