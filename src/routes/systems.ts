// Compiled languages and Python.
import type { RouteFamily } from "./types.js";

/** A compiler option whose output is the product itself (preprocessed source, dependencies, its own facts). */
const COMPILER_OUTPUT = ["-E", "-M", "-MM", "-###", "-dumpversion", "-dumpmachine", "-dumpspecs", "-print-search-dirs", "-print-libgcc-file-name", "-print-multiarch", "-print-sysroot", "--version", "-v", "--help"];

export const systems: RouteFamily = {
  tools: {
    cargo: { valueOptions: ["--manifest-path", "--config", "-Z", "--color"], flagOptions: ["-q", "--quiet", "-v", "-vv", "--verbose", "--frozen", "--locked", "--offline"] },
    go: {},
    gradle: {
      valueOptions: ["-p", "--project-dir", "-b", "--build-file", "-c", "--settings-file", "-g", "--gradle-user-home", "-x", "--exclude-task", "--console"],
      flagOptions: ["-q", "--quiet", "-i", "--info", "-d", "--debug", "-w", "--warn", "-s", "--stacktrace", "-S", "--full-stacktrace", "--offline", "--no-daemon", "--daemon", "--parallel", "--continue", "--build-cache", "--no-build-cache", "--rerun-tasks"],
    },
    mvn: {
      valueOptions: ["-f", "--file", "-s", "--settings", "-gs", "--global-settings", "-P", "--activate-profiles", "-pl", "--projects", "-T", "--threads", "-l", "--log-file", "-D"],
      flagOptions: ["-o", "--offline", "-B", "--batch-mode", "-q", "--quiet", "-e", "--errors", "-X", "--debug", "-U", "--update-snapshots", "-am", "--also-make", "-ntp", "--no-transfer-progress", "-fae", "--fail-at-end"],
    },
    dotnet: {},
    pip: { valueOptions: [], flagOptions: ["-q", "--quiet", "-v", "--verbose"] },
    pip3: { valueOptions: [], flagOptions: ["-q", "--quiet", "-v", "--verbose"] },
  },
  routes: [
    { id: "cargo.test", tool: "cargo", sub: [["test", "t"]], filter: "test.cargo", savings: 90, pipeSafe: true },
    { id: "cargo.nextest", tool: "cargo", sub: ["nextest", ["run", "r"]], filter: "test.cargo", savings: 90, pipeSafe: true },
    { id: "cargo.build", tool: "cargo", sub: [["build", "b", "check", "c", "clippy"]], filter: "diagnostics.cargo", savings: 80, pipeSafe: true },
    { id: "go.test", tool: "go", sub: ["test"], filter: "test.go", savings: 90, pipeSafe: true },
    { id: "mvn.test", tool: "mvn", sub: [["test", "verify"]], filter: "test.maven", savings: 90, pipeSafe: true },
    { id: "mvn.clean.test", tool: "mvn", sub: ["clean", ["test", "verify"]], filter: "test.maven", savings: 90, pipeSafe: true },
    { id: "gradle.test", tool: "gradle", sub: [["test", "check"]], filter: "test.gradle", savings: 90, pipeSafe: true },
    { id: "gradle.clean.test", tool: "gradle", sub: ["clean", ["test", "check"]], filter: "test.gradle", savings: 90, pipeSafe: true },
    { id: "py.test", tool: "py.test", filter: "test.pytest", savings: 90, pipeSafe: true },
    { id: "go.build", tool: "go", sub: [["build", "vet"]], filter: "diagnostics.go", savings: 60, pipeSafe: true },
    { id: "golangci-lint", tool: "golangci-lint", sub: ["run"], filter: "diagnostics.golangci", savings: 60, pipeSafe: true },
    { id: "pytest", tool: "pytest", filter: "test.pytest", savings: 90, pipeSafe: true },
    { id: "ruff", tool: "ruff", sub: ["check"], filter: "diagnostics.ruff", savings: 50, pipeSafe: true },
    { id: "ruff.format", tool: "ruff", sub: ["format", "--check"], filter: "diagnostics.ruff", savings: 50, pipeSafe: true },
    { id: "mypy", tool: "mypy", filter: "diagnostics.mypy", savings: 40, pipeSafe: true },
    { id: "dmypy", tool: "dmypy", sub: [["run", "check"]], filter: "diagnostics.mypy", savings: 40, pipeSafe: true },
    { id: "pyright", tool: "pyright", filter: "diagnostics.pyright", savings: 40, pipeSafe: true },
    { id: "basedpyright", tool: "basedpyright", filter: "diagnostics.pyright", savings: 40, pipeSafe: true },
    { id: "shellcheck", tool: "shellcheck", filter: "diagnostics.shellcheck", savings: 60, pipeSafe: true },
    { id: "hadolint", tool: "hadolint", filter: "diagnostics.hadolint", savings: 30, pipeSafe: true },
    { id: "rubocop", tool: "rubocop", filter: "diagnostics.rubocop", savings: 50, pipeSafe: true },
    { id: "markdownlint", tool: "markdownlint", filter: "diagnostics.markdownlint", savings: 30, pipeSafe: true },
    { id: "pip.install", tool: "pip", sub: [["install", "uninstall"]], filter: "install.pip", savings: 85, pipeSafe: true },
    { id: "pip3.install", tool: "pip3", sub: [["install", "uninstall"]], filter: "install.pip", savings: 85, pipeSafe: true },
    { id: "pip.list", tool: "pip", sub: [["list", "freeze"]], filter: "list.packages", savings: 60, pipeSafe: false },
    { id: "pip3.list", tool: "pip3", sub: [["list", "freeze"]], filter: "list.packages", savings: 60, pipeSafe: false },
    { id: "mvn.build", tool: "mvn", sub: [["compile", "package", "install", "clean", "test-compile", "deploy"]], filter: "build.log", savings: 80, pipeSafe: true },
    { id: "gradle.build", tool: "gradle", sub: [["build", "assemble", "compileJava", "compileKotlin", "classes", "jar", "bootJar", "clean"]], filter: "build.log", savings: 80, pipeSafe: true },
    { id: "dotnet.build", tool: "dotnet", sub: [["build", "publish"]], filter: "build.log", savings: 70, pipeSafe: true },
    { id: "make", tool: "make", filter: "build.log", savings: 70, pipeSafe: true },
    { id: "gmake", tool: "gmake", filter: "build.log", savings: 70, pipeSafe: true },
    { id: "cmake.build", tool: "cmake", sub: ["--build"], filter: "build.log", savings: 70, pipeSafe: true },
    { id: "gcc", tool: "gcc", filter: "build.log", savings: 40, pipeSafe: true, indirectIf: COMPILER_OUTPUT },
    { id: "g++", tool: "g++", filter: "build.log", savings: 40, pipeSafe: true, indirectIf: COMPILER_OUTPUT },
    { id: "cc", tool: "cc", filter: "build.log", savings: 40, pipeSafe: true, indirectIf: COMPILER_OUTPUT },
    { id: "c++", tool: "c++", filter: "build.log", savings: 40, pipeSafe: true, indirectIf: COMPILER_OUTPUT },
    { id: "clang", tool: "clang", filter: "build.log", savings: 40, pipeSafe: true, indirectIf: COMPILER_OUTPUT },
    { id: "clang++", tool: "clang++", filter: "build.log", savings: 40, pipeSafe: true, indirectIf: COMPILER_OUTPUT },
  ],
};
