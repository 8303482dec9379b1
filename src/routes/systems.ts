// Compiled languages and Python.
import type { RouteFamily } from "./types.js";

export const systems: RouteFamily = {
  tools: {
    cargo: { valueOptions: ["--manifest-path", "--config", "-Z", "--color"], flagOptions: ["-q", "--quiet", "-v", "-vv", "--verbose", "--frozen", "--locked", "--offline"] },
    go: {},
    gradle: {
      valueOptions: ["-p", "--project-dir", "-b", "--build-file", "-c", "--settings-file", "-g", "--gradle-user-home", "-x", "--exclude-task", "--console"],
      flagOptions: ["-q", "--quiet", "-i", "--info", "-d", "--debug", "-w", "--warn", "-s", "--stacktrace", "-S", "--full-stacktrace", "--offline", "--no-daemon", "--daemon", "--parallel", "--continue", "--build-cache", "--no-build-cache", "--rerun-tasks"],
    },
    mvn: {
      valueOptions: ["-f", "--file", "-s", "--settings", "-gs", "--global-settings", "-P", "--activate-profiles", "-pl", "--projects", "-T", "--threads", "-l", "--log-file"],
      flagOptions: ["-o", "--offline", "-B", "--batch-mode", "-q", "--quiet", "-e", "--errors", "-X", "--debug", "-U", "--update-snapshots", "-am", "--also-make", "-ntp", "--no-transfer-progress", "-fae", "--fail-at-end"],
    },
    pip: { valueOptions: [], flagOptions: ["-q", "--quiet", "-v", "--verbose"] },
    pip3: { valueOptions: [], flagOptions: ["-q", "--quiet", "-v", "--verbose"] },
  },
  routes: [
    { id: "cargo.test", tool: "cargo", sub: [["test", "t"]], filter: "test.cargo", savings: 90, pipeSafe: true },
    { id: "cargo.nextest", tool: "cargo", sub: ["nextest", ["run", "r"]], filter: "test.cargo", savings: 90, pipeSafe: true },
    { id: "cargo.build", tool: "cargo", sub: [["build", "b", "check", "c", "clippy"]], filter: "diagnostics.cargo", savings: 80, pipeSafe: true },
    { id: "go.test", tool: "go", sub: ["test"], filter: "test.go", savings: 90, pipeSafe: true },
    { id: "go.build", tool: "go", sub: [["build", "vet"]], filter: "diagnostics", savings: 80, pipeSafe: true },
    { id: "mvn.test", tool: "mvn", sub: [["test", "verify"]], filter: "test.maven", savings: 90, pipeSafe: true },
    { id: "mvn.clean.test", tool: "mvn", sub: ["clean", ["test", "verify"]], filter: "test.maven", savings: 90, pipeSafe: true },
    { id: "gradle.test", tool: "gradle", sub: [["test", "check"]], filter: "test.gradle", savings: 90, pipeSafe: true },
    { id: "gradle.clean.test", tool: "gradle", sub: ["clean", ["test", "check"]], filter: "test.gradle", savings: 90, pipeSafe: true },
    { id: "pytest", tool: "pytest", filter: "test.pytest", savings: 90, pipeSafe: true },
    { id: "py.test", tool: "py.test", filter: "test.pytest", savings: 90, pipeSafe: true },
    { id: "ruff", tool: "ruff", sub: ["check"], filter: "diagnostics", savings: 80, pipeSafe: true },
    { id: "mypy", tool: "mypy", filter: "diagnostics", savings: 80, pipeSafe: true },
    { id: "pip.install", tool: "pip", sub: [["install", "uninstall"]], filter: "install.pip", savings: 85, pipeSafe: true },
    { id: "pip3.install", tool: "pip3", sub: [["install", "uninstall"]], filter: "install.pip", savings: 85, pipeSafe: true },
    { id: "pip.list", tool: "pip", sub: [["list", "freeze"]], filter: "list.packages", savings: 60, pipeSafe: false },
    { id: "pip3.list", tool: "pip3", sub: [["list", "freeze"]], filter: "list.packages", savings: 60, pipeSafe: false },
    { id: "make", tool: "make", filter: "generic", savings: 60, pipeSafe: true },
  ],
};
