// Tools whose compaction is line-based: each route's filter is the built-in
// declarative filter named like the route (src/filters/builtin/<id>.toml),
// which a user's or project's `[[filters]]` of that name replaces.
import type { RouteFamily, RouteRow, SubWord } from "./types.js";

function row(id: string, tool: string, sub: readonly SubWord[] | null, savings: number): RouteRow {
  return sub ? { id, tool, sub, filter: id, savings, pipeSafe: true } : { id, tool, filter: id, savings, pipeSafe: true };
}

export const library: RouteFamily = {
  tools: {
    bazel: { valueOptions: ["--bazelrc", "--output_base", "--output_user_root"], flagOptions: ["--batch", "--nohome_rc", "--nosystem_rc", "--noworkspace_rc"] },
    ninja: {},
    meson: {},
    swift: {},
    xcodebuild: {},
    unzip: {},
  },
  routes: [
    row("ninja", "ninja", null, 70),
    row("meson", "meson", [["setup", "compile", "test", "install", "configure"]], 60),
    row("bazel", "bazel", [["build", "test", "run", "coverage"]], 70),
    
    row("swift.build", "swift", [["build", "package"]], 70),
    row("xcodebuild", "xcodebuild", null, 85),
    row("unzip", "unzip", null, 80),
  ],
};
