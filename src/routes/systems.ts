// Compiled languages and Python.
import type { RouteFamily } from "./types.js";

/** A compiler option whose output is the product itself (preprocessed source, dependencies, its own facts). */
const COMPILER_OUTPUT = ["-E", "-M", "-MM", "-###", "-dumpversion", "-dumpmachine", "-dumpspecs", "-print-search-dirs", "-print-libgcc-file-name", "-print-multiarch", "-print-sysroot", "--version", "-v", "--help"];

export const systems: RouteFamily = {
  tools: {
    cargo: { valueOptions: ["--manifest-path", "--config", "-Z", "--color"], flagOptions: ["-q", "--quiet", "-v", "-vv", "--verbose", "--frozen", "--locked", "--offline"] },
    go: {},
    mvn: { valueOptions: ["-f", "--file", "-s", "--settings", "-P", "--activate-profiles", "-pl", "--projects", "-T", "--threads", "-D"], flagOptions: ["-B", "--batch-mode", "-q", "--quiet", "-e", "--errors", "-X", "--debug", "-o", "--offline", "-U", "-am", "-amd", "-ntp", "--no-transfer-progress"] },
    gradle: { valueOptions: ["-p", "--project-dir", "-x", "--exclude-task"], flagOptions: ["-q", "--quiet", "--info", "--stacktrace", "--offline", "--no-daemon", "--parallel", "--console=plain"] },
    dotnet: {},
    pip: { valueOptions: [], flagOptions: ["-q", "--quiet", "-v", "--verbose"] },
    pip3: { valueOptions: [], flagOptions: ["-q", "--quiet", "-v", "--verbose"] },
  },
  routes: [
    { id: "cargo.test", tool: "cargo", sub: [["test", "t", "nextest"]], filter: "test.cargo", savings: 90, pipeSafe: true },
    { id: "cargo.build", tool: "cargo", sub: [["build", "b", "check", "c", "clippy"]], filter: "diagnostics.cargo", savings: 80, pipeSafe: true },
    { id: "go.test", tool: "go", sub: ["test"], filter: "test.go", savings: 90, pipeSafe: true },
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
    { id: "mvn.build", tool: "mvn", sub: [["compile", "package", "install", "verify", "clean", "test-compile", "deploy"]], filter: "build.log", savings: 80, pipeSafe: true },
    { id: "gradle.build", tool: "gradle", sub: [["build", "assemble", "compileJava", "compileKotlin", "classes", "jar", "bootJar", "clean"]], filter: "build.log", savings: 80, pipeSafe: true },
    { id: "dotnet.build", tool: "dotnet", sub: [["build", "publish"]], filter: "build.log", savings: 70, pipeSafe: true },
    { id: "make", tool: "make", filter: "build.log", savings: 70, pipeSafe: true },
    { id: "gmake", tool: "gmake", filter: "build.log", savings: 70, pipeSafe: true },
    { id: "cmake.build", tool: "cmake", sub: ["--build"], filter: "build.log", savings: 70, pipeSafe: true },
    { id: "ninja", tool: "ninja", filter: "build.log", savings: 70, pipeSafe: true },
    { id: "gcc", tool: "gcc", filter: "build.log", savings: 40, pipeSafe: true, indirectIf: COMPILER_OUTPUT },
    { id: "g++", tool: "g++", filter: "build.log", savings: 40, pipeSafe: true, indirectIf: COMPILER_OUTPUT },
    { id: "cc", tool: "cc", filter: "build.log", savings: 40, pipeSafe: true, indirectIf: COMPILER_OUTPUT },
    { id: "c++", tool: "c++", filter: "build.log", savings: 40, pipeSafe: true, indirectIf: COMPILER_OUTPUT },
    { id: "clang", tool: "clang", filter: "build.log", savings: 40, pipeSafe: true, indirectIf: COMPILER_OUTPUT },
    { id: "clang++", tool: "clang++", filter: "build.log", savings: 40, pipeSafe: true, indirectIf: COMPILER_OUTPUT },
  ],
};
