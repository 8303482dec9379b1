import type { RouteFamily } from "./types.js";

const INSTALL = ["install", "i", "ci", "add", "update", "up", "upgrade", "remove", "rm", "uninstall", "un"];

export const javascript: RouteFamily = {
  tools: {
    npm: { valueOptions: ["--prefix", "-w", "--workspace"], flagOptions: ["-s", "--silent", "-q", "--quiet", "-ws", "--workspaces"] },
    pnpm: { valueOptions: ["-C", "--dir", "--filter", "-F"], flagOptions: ["-r", "--recursive", "-s", "--silent", "-w", "--workspace-root"] },
    yarn: { valueOptions: ["--cwd"], flagOptions: ["-s", "--silent"] },
    bun: {},
  },
  routes: [
    { id: "npm.test", tool: "npm", sub: [["test", "t", "tst"]], filter: "test.js", savings: 90, pipeSafe: true },
    { id: "npm.run.test", tool: "npm", sub: [["run", "run-script"], "test"], filter: "test.js", savings: 90, pipeSafe: true },
    { id: "npm.install", tool: "npm", sub: [INSTALL], filter: "install.js", savings: 85, pipeSafe: true },
    { id: "npm.ls", tool: "npm", sub: [["ls", "list", "la", "ll"]], filter: "list.packages", savings: 70, pipeSafe: false },
    { id: "npm.outdated", tool: "npm", sub: ["outdated"], filter: "list.packages", savings: 50, pipeSafe: false },
    { id: "pnpm.test", tool: "pnpm", sub: [["test", "t"]], filter: "test.js", savings: 90, pipeSafe: true },
    { id: "pnpm.run.test", tool: "pnpm", sub: ["run", "test"], filter: "test.js", savings: 90, pipeSafe: true },
    { id: "pnpm.install", tool: "pnpm", sub: [INSTALL], filter: "install.js", savings: 85, pipeSafe: true },
    { id: "pnpm.list", tool: "pnpm", sub: [["list", "ls", "ll"]], filter: "list.packages", savings: 70, pipeSafe: false },
    { id: "yarn.test", tool: "yarn", sub: ["test"], filter: "test.js", savings: 90, pipeSafe: true },
    { id: "yarn.run.test", tool: "yarn", sub: ["run", "test"], filter: "test.js", savings: 90, pipeSafe: true },
    { id: "yarn.install", tool: "yarn", sub: [["install", "add", "remove", "upgrade"]], filter: "install.js", savings: 85, pipeSafe: true },
    { id: "bun.test", tool: "bun", sub: ["test"], filter: "test.js", savings: 90, pipeSafe: true },
    { id: "vitest", tool: "vitest", filter: "test.js", savings: 90, pipeSafe: true },
    { id: "jest", tool: "jest", filter: "test.js", savings: 90, pipeSafe: true },
    { id: "playwright.test", tool: "playwright", sub: ["test"], filter: "test.js", savings: 90, pipeSafe: true },
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
