// The text of the built-in filters' files (./builtin/<name>.toml), by name.
// From the source tree they are read from disk; the bundles carry the text
// instead of this module (scripts/build.mjs), so the package ships no
// separate files.
import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const LIBRARY_TEXTS: ReadonlyMap<string, string> = readLibrary();

function readLibrary(): Map<string, string> {
  const dir = fileURLToPath(new URL("./builtin/", import.meta.url));
  const names = readdirSync(dir)
    .filter((n) => n.endsWith(".toml"))
    .sort();
  return new Map(names.map((n) => [n.slice(0, -".toml".length), readFileSync(dir + n, "utf8")]));
}
