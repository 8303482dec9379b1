// Bundles the CLI and the library into dist/ so that no run of rtk loads
// unbundled node_modules. Parser validations are skipped in the bundle.
import { build } from "esbuild";
import { chmodSync, readFileSync } from "node:fs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const common = {
  bundle: true,
  platform: "node",
  target: "node20",
  sourcemap: false,
  legalComments: "none",
  minifySyntax: true,
  define: { RTK_BUNDLED: "true", RTK_VERSION: JSON.stringify(pkg.version) },
  logLevel: "warning",
};

await Promise.all([
  build({
    ...common,
    entryPoints: ["src/cli/main.ts"],
    outfile: "dist/rtk.cjs",
    format: "cjs",
    banner: { js: "#!/usr/bin/env node" },
  }),
  build({ ...common, entryPoints: ["src/lib.ts"], outfile: "dist/lib.cjs", format: "cjs" }),
  build({ ...common, entryPoints: ["src/lib.ts"], outfile: "dist/lib.mjs", format: "esm" }),
]);
chmodSync("dist/rtk.cjs", 0o755);
