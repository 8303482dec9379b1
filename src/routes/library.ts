// Tools whose compaction is line-based: each route's filter is the built-in
// declarative filter named like the route (src/filters/builtin/<id>.toml),
// which a user's or project's `[[filters]]` of that name replaces. A tool's
// rows are tried longest subcommand first across families, so a catch-all row
// here (`cmake`) comes after a hand-written filter's row (`cmake --build`).
import type { RouteFamily, RouteRow, SubWord } from "./types.js";

function row(id: string, tool: string, sub: readonly SubWord[] | null, savings: number): RouteRow {
  return sub ? { id, tool, sub, filter: id, savings, pipeSafe: true } : { id, tool, filter: id, savings, pipeSafe: true };
}

/** The database and asset tasks whose logs are line-based (other rails/rake tasks print what they were written to). */
const MIGRATE_TASKS = ["db:migrate", "db:rollback", "db:migrate:redo", "db:migrate:up", "db:migrate:down", "db:prepare", "db:setup", "db:reset", "db:seed", "assets:precompile", "assets:clobber"];

export const library: RouteFamily = {
  tools: {
    bazel: { valueOptions: ["--bazelrc", "--output_base", "--output_user_root"], flagOptions: ["--batch", "--nohome_rc", "--nosystem_rc", "--noworkspace_rc"] },
    ninja: {},
    meson: {},
    swift: {},
    xcodebuild: {},
    unzip: {},
    alembic: { valueOptions: ["-c", "--config", "-n", "--name", "-x"], flagOptions: ["--raiseerr"] },
    pulumi: { valueOptions: ["-C", "--cwd", "--color"], flagOptions: ["--non-interactive", "--emoji", "--disable-integrity-checking"] },
    gcloud: { valueOptions: ["--project", "--account", "--configuration", "--verbosity", "--impersonate-service-account"], flagOptions: ["-q", "--quiet"] },
    dbt: { valueOptions: ["--log-level", "--profiles-dir", "--project-dir"], flagOptions: ["-d", "--debug", "-q", "--quiet", "--no-use-colors", "--use-colors"] },
  },
  routes: [
    row("ninja", "ninja", null, 70),
    row("meson", "meson", [["setup", "compile", "test", "install", "configure"]], 60),
    row("bazel", "bazel", [["build", "test", "coverage"]], 70),
    row("swift.build", "swift", [["build", "package"]], 70),
    // Listing the tests prints their names: content.
    { ...row("swift.test", "swift", ["test"], 85), indirectIf: ["list", "-l", "--list-tests"] },
    row("xcodebuild", "xcodebuild", null, 85),
    row("unzip", "unzip", null, 80),
    row("ansible-playbook", "ansible-playbook", null, 40),
    row("pre-commit", "pre-commit", ["run"], 55),
    // `hugo server` serves until stopped: its output must come as it is printed.
    { ...row("hugo", "hugo", null, 40), indirectIf: ["server", "serve", "new", "mod", "version", "env", "config", "list", "completion"] },
    row("sphinx-build", "sphinx-build", null, 70),
    row("alembic", "alembic", [["upgrade", "downgrade", "stamp"]], 45),
    row("helm.lint", "helm", ["lint"], 30),
    // The deploys and builds whose progress is line-based; gcloud's tables are not routed (padded by two spaces, they cost no more raw).
    row("gcloud.run.deploy", "gcloud", ["run", "deploy"], 25),
    row("gcloud.builds.submit", "gcloud", ["builds", "submit"], 55),
    row("flyway", "flyway", [["migrate", "validate", "repair", "baseline", "info"]], 30),
    row("mix", "mix", [["deps.get", "deps.update", "deps.compile", "compile"]], 45),
    row("configure", "configure", null, 85),
    row("autoreconf", "autoreconf", null, 80),
    // `cmake --build` is the build-log filter's (its row has a subcommand, so it comes first); these print content or run scripts.
    { ...row("cmake", "cmake", null, 70), indirectIf: ["-E", "-P", "-N", "--help", "--version", "--system-information", "--find-package", "--workflow"] },
    row("cppcheck", "cppcheck", null, 75),
    row("clang-tidy", "clang-tidy", null, 70),
    row("valgrind", "valgrind", null, 35),
    // A listing (`--list-only`) is content; ffmpeg writing to stdout (`-`, `pipe:`) writes the media itself.
    { ...row("rsync", "rsync", null, 85), indirectIf: ["--list-only", "--help", "--version"] },
    { ...row("scons", "scons", null, 70), indirectIf: ["-h", "-H", "--help", "--version"] },
    { ...row("tox", "tox", null, 50), indirectIf: ["-l", "-a", "--listenvs", "--listenvs-all", "--showconfig", "--help", "-h", "--version", "list", "config", "devenv", "exec", "quickstart"] },
    row("pdflatex", "pdflatex", null, 50),
    // `-pvc` previews and recompiles until stopped: its output must come as it is printed.
    { ...row("latexmk", "latexmk", null, 60), indirectIf: ["-pvc", "-pv", "-help", "--help", "-version", "--version"] },
    {
      ...row("ffmpeg", "ffmpeg", null, 65),
      indirectIf: [
        "-",
        "pipe:",
        "pipe:1",
        "-h",
        "-help",
        "--help",
        "-version",
        "-formats",
        "-codecs",
        "-encoders",
        "-decoders",
        "-filters",
        "-pix_fmts",
        "-protocols",
        "-muxers",
        "-demuxers",
        "-devices",
        "-hwaccels",
      ],
    },
    row("sbt", "sbt", [["compile", "package", "assembly", "publishLocal", "update", "clean", "Test/compile"]], 80),
    row("lein", "lein", [["compile", "uberjar", "jar", "deps", "install", "check"]], 75),
    row("stack", "stack", [["build", "install"]], 85),
    row("cabal", "cabal", [["build", "v2-build", "new-build", "install", "v2-install"]], 85),
    row("jekyll", "jekyll", [["build", "b", "doctor"]], 50),
    row("mkdocs", "mkdocs", [["build", "gh-deploy"]], 20),
    { ...row("nox", "nox", null, 60), indirectIf: ["-l", "--list", "--list-sessions", "--json", "-h", "--help", "--version"] },
    // A persistent task (dev servers, watchers) prints until stopped.
    { ...row("turbo", "turbo", [["run", "build", "test", "lint"]], 80), indirectIf: ["dev", "start", "watch", "--graph", "--dry", "--dry-run", "--dry=json"] },
    row("lefthook", "lefthook", ["run"], 35),
    { ...row("gulp", "gulp", null, 60), indirectIf: ["watch", "serve", "dev", "--tasks", "-T", "--tasks-simple", "--tasks-json", "-h", "--help", "-v", "--version"] },
    row("rails", "rails", [[...MIGRATE_TASKS]], 65),
    row("rake", "rake", [[...MIGRATE_TASKS]], 65),
    row("pulumi", "pulumi", [["up", "update", "preview", "pre", "destroy", "down", "refresh"]], 50),
    { ...row("cdk", "cdk", [["deploy", "destroy", "bootstrap"]], 60), indirectIf: ["--watch"] },
    row("serverless", "serverless", [["deploy", "remove", "package"]], 50),
    { ...row("sam", "sam", [["build", "deploy", "delete", "package"]], 60), indirectIf: ["--watch"] },
    row("packer", "packer", ["build"], 75),
    // `vagrant destroy` asks before it acts: a prompt must not wait behind a filter.
    row("vagrant", "vagrant", [["up", "provision", "reload", "halt"]], 70),
    { ...row("skaffold", "skaffold", [["build", "run", "deploy", "delete"]], 55), indirectIf: ["--tail", "--port-forward", "--follow"] },
    row("fly", "fly", ["deploy"], 55),
    row("firebase", "firebase", ["deploy"], 70),
    row("netlify", "netlify", [["deploy", "build"]], 55),
    // `pub outdated` and `pub deps` print tables and trees, `pub run` a program.
    { ...row("flutter", "flutter", [["pub", "build"]], 60), indirectIf: ["outdated", "deps", "run", "global", "cache", "publish", "token", "--watch"] },
    row("dart", "dart", ["pub", ["get", "upgrade", "downgrade"]], 60),
    row("pod", "pod", [["install", "update"]], 50),
    row("carthage", "carthage", [["bootstrap", "update", "build"]], 60),
    row("conan", "conan", [["install", "create", "build"]], 60),
    row("vcpkg", "vcpkg", ["install"], 70),
    row("dotnet.restore", "dotnet", ["restore"], 50),
    { ...row("prisma", "prisma", [["migrate", "generate", "db"]], 50), indirectIf: ["--watch", "studio", "diff", "execute", "pull"] },
    // `-e` prints the environment and `-g` writes graphs: content, not a build log.
    { ...row("bitbake", "bitbake", null, 80), indirectIf: ["-e", "--environment", "-g", "--graphviz", "-s", "--show-versions", "-h", "--help", "--version"] },
    row("pants", "pants", [["lint", "check", "fmt", "fix", "package", "publish"]], 55),
    // Not `nx run`: `nx run web:serve` is a dev server, told from a build only by its target's name.
    row("nx", "nx", [["run-many", "affected", "build", "lint", "typecheck"]], 60),
    { ...row("lerna", "lerna", [["run", "exec"]], 70), indirectIf: ["dev", "start", "watch", "serve", "--stream"] },
    { ...row("earthly", "earthly", null, 60), indirectIf: ["-i", "--interactive", "-h", "--help", "--version", "ls", "doc", "bootstrap", "account", "org", "secret"] },
    // `-N` lists the tests without running them, `--show-only=json-v1` prints them as JSON.
    { ...row("ctest", "ctest", null, 80), indirectIf: ["-N", "--show-only", "--show-only=json-v1", "--show-only=human", "-h", "--help", "--version"] },
    // Logs in JSON (`--log-format json`) are data.
    { ...row("dbt", "dbt", [["run", "build", "test", "seed", "snapshot"]], 75), indirectIf: ["--log-format", "--log-format=json", "--log-format-file"] },
    // `python -m unittest`: the module is the tool (the launcher table reads `python -m`).
    { ...row("unittest", "unittest", null, 60), indirectIf: ["-h", "--help"] },
    { ...row("doxygen", "doxygen", null, 85), indirectIf: ["-g", "-s", "-x", "-x_noenv", "-l", "-w", "-e", "-h", "--help", "-v", "--version", "-"] },
  ],
};
