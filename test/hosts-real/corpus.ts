// The commands the real hosts are driven with: the shared corpus of what agents
// send (read in place when ../shared is there), and commands generated for the
// scratch repository (sandbox.ts), read-only ones with their flags and paths
// above all, which a host runs by itself and rtk compacts most.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { repoRoot } from "../support/corpus.js";

/** Commands that would wait on something (a follow, a prompt, the network, a server) or fetch packages: not run by a host here. */
const SLOW =
  /(^|\s)(-f|--follow|-it|watch|nohup|sleep|ssh|dev|start|install|ci|add\s+-D)(\s|$)|tail -f|docker logs -f|\bnpx\b|\bpnpm\b|\byarn\b|\bbun\b|\buv\b|\bpoetry\b|\bpip\b|\bpython\b|\bpython3\b|\bpytest\b|apt-get|rebase -i|&\s*$|\bcurl\b|\bwget\b|\bdocker\b|\bkubectl\b|\bgh\b|\bpsql\b|while read|exec 3|\bmake\b|cargo (build|test|clippy)|go (test|build|vet)|golangci|mypy|ruff|npm (test|run|outdated|ls)|commit -F -/;

export function sharedCommands(): string[] {
  const file = join(repoRoot, "..", "shared", "corpus", "agent-commands.json");
  if (!existsSync(file)) return [];
  const all = JSON.parse(readFileSync(file, "utf8")) as string[];
  return all.filter((c) => !SLOW.test(c) && c.trim() && !c.trim().startsWith("#") && !c.endsWith("\\"));
}

const paths = ["f1.txt", "README.md", "src/main.js", "src", "notes/todo.txt", ".", "src/", "./f1.txt", "../app/f1.txt", "/etc/hostname", "/tmp", "~/.gitconfig", "missing.txt", "*.txt", "src/*.js"];

/** Read-only commands a host may run unprompted, with flags and paths inside and outside the project. */
export function readOnlyCommands(): string[] {
  const out: string[] = [];
  const git = [
    "git status",
    "git status --short",
    "git status -s",
    "git status -sb",
    "git status --porcelain",
    "git status --ignored",
    "git status -uno",
    "git status src",
    "git log",
    "git log -n 5",
    "git log -n 3 --oneline",
    "git log --oneline -20",
    "git log -5 --stat",
    "git log --graph --oneline --all",
    "git log -p -1",
    "git log --author=Dev",
    "git log --since=yesterday",
    "git log --format='%H %s'",
    "git log --pretty=oneline",
    "git log --format=%an",
    "git log main",
    "git log -- src",
    "git log --output=/tmp/x",
    "git diff",
    "git diff --stat",
    "git diff --cached",
    "git diff --staged",
    "git diff HEAD",
    "git diff HEAD~1",
    "git diff HEAD~1 HEAD -- src",
    "git diff --name-only",
    "git diff --name-status",
    "git diff -U5",
    "git diff --word-diff",
    "git diff --no-index f1.txt README.md",
    "git diff --ext-diff",
    "git diff --output=/tmp/d",
    "git show",
    "git show HEAD",
    "git show --stat HEAD",
    "git show HEAD~1 --name-only",
    "git show HEAD:f1.txt",
    "git branch",
    "git branch -a",
    "git branch -v",
    "git branch --list",
    "git branch -d old",
    "git branch new-branch",
    "git stash list",
    "git stash show",
    "git stash",
    "git -C src status",
    "git --no-pager log -3",
    "git -c core.pager=cat log -1",
    "git add f1.txt",
    "git commit -m wip",
    "git push origin main",
    "git checkout -b feat",
    "git switch main",
    "git fetch",
    "git pull",
  ];
  out.push(...git);
  for (const tool of ["ls", "ls -la", "ls -1", "ls -R", "ls -lh", "ls -a", "ls -l --color=never", "ls -lt"]) {
    out.push(tool);
    for (const p of ["src", "/tmp", "..", "notes", "*.txt"]) out.push(`${tool} ${p}`);
  }
  for (const tool of ["cat", "cat -n", "head", "head -n 2", "head -3", "tail", "tail -n 2", "tail -1", "wc", "wc -l", "wc -c"]) {
    for (const p of paths.slice(0, 12)) out.push(`${tool} ${p}`);
  }
  out.push(
    "grep -rn alpha .",
    "grep -rn alpha src",
    "grep -c alpha f1.txt",
    "grep -i beta f1.txt",
    "grep -l add src/*.js",
    "grep -rn root /etc/passwd",
    "grep -e alpha -e beta f1.txt",
    "grep -E 'a|b' f1.txt",
    "grep -r --include='*.js' add .",
    "grep -o alp f1.txt",
    "grep alpha",
    "rg alpha",
    "rg -n add src",
    "rg --files",
    "rg -l alpha",
    "rg root /etc",
    "rg --pre cat alpha",
    "find .",
    "find . -name '*.js'",
    "find src -type f",
    "find . -maxdepth 1",
    "find /tmp -maxdepth 1",
    "find . -name '*.txt' -newer f1.txt",
    "find . -name '*.log' -delete",
    "find . -exec ls {} \\;",
    "find . -type f -print",
    "find . -fprint /tmp/out",
    "tree",
    "tree -L 2",
    "tree src",
    "tree -a",
    "tree /tmp",
    "tree -o /tmp/t",
    "env",
    "printenv",
    "printenv HOME",
    "env | grep HOME",
    "echo hi",
    "pwd",
    "cd src && ls",
    "cd src && git status",
    "git status && git log -n 1",
    "git status; git log -1",
    "git status || git log -1",
    "git log --oneline | head -5",
    "git diff | wc -l",
    "ls | head",
    "cat f1.txt | grep alpha",
    "ls -la && git status",
    "git status && npm test",
    "git status && git push",
    "git status > /tmp/s.txt",
    "git status 2>&1",
    "git status >/dev/null",
    "ls 2>/dev/null",
    "cat < f1.txt",
    "FOO=1 git status",
    "timeout 5 git status",
    "nice git status",
    "time git status",
    "command git status",
    "git status &",
    "(git status)",
    "{ git status; }",
    "git log -1 --format=%H $(echo HEAD)",
    "cat $HOME/.gitconfig",
    "ls $HOME",
    "rtk git status",
    "rtk ls",
    "rtk git push origin main",
    "npm test",
    "cargo test",
    "rm -rf build",
    "mkdir -p out",
    "touch new-file",
    "cp f1.txt f2.txt",
    "mv new.txt moved.txt",
    "sed -i s/alpha/ALPHA/ f1.txt",
  );
  return [...new Set(out)];
}

/** Every command of the parity runs, each once. */
export function parityCommands(): string[] {
  return [...new Set([...readOnlyCommands(), ...sharedCommands()])];
}
