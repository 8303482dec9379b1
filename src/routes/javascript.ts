import type { RouteFamily } from "./types.js";

/** Script names run without `run` (`pnpm build`, `yarn lint`) whose output is usually a build's, a type check's or a linter's. */
const SCRIPTS = ["build", "lint", "typecheck", "type-check", "tsc", "check", "compile"];

const INSTALL = ["install", "i", "ci", "add", "update", "up", "upgrade", "remove", "rm", "uninstall", "un"];

export const javascript: RouteFamily = {
  tools: {
    npm: { valueOptions: ["--prefix", "-w", "--workspace"], flagOptions: ["-s", "--silent", "-q", "--quiet", "-ws", "--workspaces"] },
    pnpm: { valueOptions: ["-C", "--dir", "--filter", "-F"], flagOptions: ["-r", "--recursive", "-s", "--silent", "-w", "--workspace-root"] },
    yarn: { valueOptions: ["--cwd"], flagOptions: ["-s", "--silent"] },
    bun: {},
    deno: {},
    // node's options that take the next word (a module to load, a reporter…): past them `--test` still counts.
    node: {
      valueOptions: [
        "-r",
        "--require",
        "--import",
        "--loader",
        "--experimental-loader",
        "-C",
        "--conditions",
        "--env-file",
        "--input-type",
        "--test-reporter",
        "--test-reporter-destination",
        "--test-name-pattern",
        "--test-skip-pattern",
        "--test-concurrency",
        "--test-timeout",
        "--test-shard",
        "--stack-size",
        "--max-old-space-size",
        "--title",
      ],
    },
  },
  routes: [
    // A script's runner is told by its output (filters/tests/npm.ts): any script may be a test run.
    { id: "npm.test", tool: "npm", sub: [["test", "t", "tst"]], filter: "test.npm", savings: 90, pipeSafe: true },
    { id: "npm.run", tool: "npm", sub: [["run", "run-script"]], filter: "test.npm", savings: 90, pipeSafe: true },
    // Installs end with their verdict (added/removed counts, vulnerabilities): still the verdict under `| tail`.
    { id: "npm.install", tool: "npm", sub: [INSTALL], filter: "packages.npm", savings: 50, pipeSafe: true },
    // A tree or table joined into lines of its own is not what `| grep` expects: unpiped only.
    { id: "npm.ls", tool: "npm", sub: [["ls", "list", "la", "ll"]], filter: "packages.tree", savings: 60, pipeSafe: false },
    { id: "npm.outdated", tool: "npm", sub: ["outdated"], filter: "packages.outdated", savings: 50, pipeSafe: false },
    { id: "npm.audit", tool: "npm", sub: ["audit"], filter: "packages.audit", savings: 50, pipeSafe: false, indirectIf: ["fix", "signatures"] },
    { id: "pnpm.test", tool: "pnpm", sub: [["test", "t"]], filter: "test.npm", savings: 90, pipeSafe: true },
    { id: "pnpm.run", tool: "pnpm", sub: ["run"], filter: "test.npm", savings: 90, pipeSafe: true },
    { id: "pnpm.script", tool: "pnpm", sub: [SCRIPTS], filter: "test.npm", savings: 80, pipeSafe: true },
    { id: "pnpm.install", tool: "pnpm", sub: [INSTALL], filter: "packages.pnpm", savings: 80, pipeSafe: true },
    { id: "pnpm.list", tool: "pnpm", sub: [["list", "ls", "ll"]], filter: "packages.tree", savings: 50, pipeSafe: false },
    { id: "yarn.test", tool: "yarn", sub: ["test"], filter: "test.npm", savings: 90, pipeSafe: true },
    { id: "yarn.run", tool: "yarn", sub: ["run"], filter: "test.npm", savings: 90, pipeSafe: true },
    { id: "yarn.script", tool: "yarn", sub: [SCRIPTS], filter: "test.npm", savings: 80, pipeSafe: true },
    { id: "yarn.install", tool: "yarn", sub: [["install", "add", "remove", "upgrade", "up"]], filter: "packages.yarn", savings: 70, pipeSafe: true },
    { id: "bun.install", tool: "bun", sub: [["install", "i", "add", "a", "remove", "rm", "update"]], filter: "packages.bun", savings: 40, pipeSafe: true },
    { id: "bun.test", tool: "bun", sub: ["test"], filter: "test.bun", savings: 90, pipeSafe: true },
    { id: "deno.test", tool: "deno", sub: ["test"], filter: "test.deno", savings: 90, pipeSafe: true },
    { id: "vitest", tool: "vitest", filter: "test.vitest", savings: 90, pipeSafe: true },
    { id: "jest", tool: "jest", filter: "test.jest", savings: 90, pipeSafe: true },
    { id: "mocha", tool: "mocha", filter: "test.mocha", savings: 90, pipeSafe: true },
    { id: "node.test", tool: "node", sub: ["--test"], subBeforeOperands: true, filter: "test.node", savings: 90, pipeSafe: true },
    { id: "playwright.test", tool: "playwright", sub: ["test"], filter: "test.playwright", savings: 90, pipeSafe: true },
    { id: "tsc", tool: "tsc", filter: "diagnostics.tsc", savings: 30, pipeSafe: true },
    { id: "vue-tsc", tool: "vue-tsc", filter: "diagnostics.tsc", savings: 30, pipeSafe: true },
    { id: "eslint", tool: "eslint", filter: "diagnostics.eslint", savings: 40, pipeSafe: true },
    { id: "biome", tool: "biome", sub: [["check", "lint", "format", "ci"]], filter: "diagnostics.biome", savings: 60, pipeSafe: true },
    { id: "oxlint", tool: "oxlint", filter: "diagnostics.oxlint", savings: 60, pipeSafe: true },
    { id: "stylelint", tool: "stylelint", filter: "diagnostics.stylelint", savings: 40, pipeSafe: true },
    { id: "prettier.check", tool: "prettier", sub: [["--check", "-c", "--list-different", "-l"]], filter: "diagnostics.prettier", savings: 30, pipeSafe: true },
    { id: "next.build", tool: "next", sub: ["build"], filter: "build.log", savings: 85, pipeSafe: true },
    { id: "vite.build", tool: "vite", sub: ["build"], filter: "build.log", savings: 80, pipeSafe: true },
    { id: "webpack", tool: "webpack", filter: "build.log", savings: 70, pipeSafe: true, indirectIf: ["serve", "--watch", "-w"] },
  ],
};
