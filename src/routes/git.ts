import type { RouteFamily } from "./types.js";

const row = (sub: string, savings: number, filter = `git.${sub}`) => ({
  id: `git.${sub}`,
  tool: "git",
  sub: [sub],
  filter,
  savings,
  pipeSafe: false,
});

export const git: RouteFamily = {
  tools: {
    git: {
      // git's own options before the command (git.c handle_options).
      valueOptions: ["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--config-env", "--super-prefix", "--shallow-file", "--attr-source"],
      joinedValueOptions: ["--exec-path"],
      flagOptions: [
        "--no-pager",
        "-P",
        "--paginate",
        "-p",
        "--bare",
        "--no-replace-objects",
        "--literal-pathspecs",
        "--no-literal-pathspecs",
        "--glob-pathspecs",
        "--noglob-pathspecs",
        "--icase-pathspecs",
        "--no-optional-locks",
        "--no-advice",
        "--no-lazy-fetch",
      ],
    },
  },
  routes: [
    row("status", 80),
    row("log", 80),
    row("diff", 60),
    row("show", 60, "git.diff"),
    row("add", 90, "git.action"),
    row("commit", 90, "git.action"),
    row("push", 90, "git.action"),
    row("pull", 90, "git.action"),
    row("fetch", 90, "git.action"),
    row("branch", 70, "git.action"),
    row("stash", 70, "git.action"),
    row("checkout", 85, "git.action"),
    row("switch", 85, "git.action"),
    row("merge", 85, "git.action"),
    row("rebase", 85, "git.action"),
  ],
};
