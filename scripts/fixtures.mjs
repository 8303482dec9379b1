// Records real tool output as test fixtures (test/fixtures/tools/<tool>/<case>/).
// Each scripts/fixtures/<family>.mjs exports `cases`: small real projects to build
// and the command to run in each. A tool missing here is skipped with a line
// saying so; its recorded cases stay as they are.
// Usage: npm run fixtures [-- <substring of tool/case>…]
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";

const root = resolve(import.meta.dirname, "..");
const out = join(root, "test", "fixtures", "tools");
const only = process.argv.slice(2);

/**
 * A case: { tool, name, files: { path: content }, setup?: argv[][], argv, version: argv, env? }.
 * The project is built in a fixed folder (/tmp/rtk-fixture/<tool>-<name>) so that
 * paths in the output are the same on every recording.
 */
async function families() {
  const dir = join(root, "scripts", "fixtures");
  const mods = readdirSync(dir)
    .filter((f) => f.endsWith(".mjs"))
    .sort();
  return (await Promise.all(mods.map((m) => import(pathToFileURL(join(dir, m)).href)))).flatMap((m) => m.cases);
}

function available(tool) {
  return spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).status === 0;
}

let recorded = 0;
let skipped = 0;
for (const c of await families()) {
  const name = `${c.tool}/${c.name}`;
  if (only.length && !only.some((o) => name.includes(o))) continue;
  if (!available(c.argv[0])) {
    console.log(`skip ${name}: ${c.argv[0]} is not installed here`);
    skipped++;
    continue;
  }
  const project = join("/tmp/rtk-fixture", `${c.tool}-${c.name}`);
  rmSync(project, { recursive: true, force: true });
  mkdirSync(project, { recursive: true });
  for (const [path, content] of Object.entries(c.files ?? {})) {
    mkdirSync(join(project, path, ".."), { recursive: true });
    writeFileSync(join(project, path), content);
  }
  const env = { ...process.env, NO_COLOR: "1", TERM: "dumb", CI: "", LC_ALL: "C.UTF-8", TZ: "UTC", ...(c.env ?? {}) };
  delete env.FORCE_COLOR;
  for (const step of c.setup ?? []) {
    const r = spawnSync(step[0], step.slice(1), { cwd: project, env, encoding: "utf8", maxBuffer: 1 << 28 });
    if (r.status !== 0) throw new Error(`${name}: setup ${step.join(" ")} failed: ${r.stderr}`);
  }
  const v = spawnSync(c.version[0], c.version.slice(1), { cwd: project, env, encoding: "utf8" });
  const r = spawnSync(c.argv[0], c.argv.slice(1), { cwd: project, env, encoding: "utf8", maxBuffer: 1 << 28 });
  const dest = join(out, c.tool, c.name);
  mkdirSync(dest, { recursive: true });
  writeFileSync(join(dest, "stdout"), r.stdout);
  writeFileSync(join(dest, "stderr"), r.stderr);
  const meta = {
    argv: c.argv,
    exit: r.status ?? 128,
    version: (v.stdout || v.stderr)
      .replace(/\x1b\[[0-9;]*m/g, "")
      .trim()
      .split("\n")[0],
    recorded: "real",
    project,
  };
  writeFileSync(join(dest, "case.json"), JSON.stringify(meta, null, 2) + "\n");
  console.log(`${name}: exit ${meta.exit}, ${r.stdout.length + r.stderr.length} chars (${meta.version})`);
  recorded++;
}
console.log(`fixtures: ${recorded} recorded, ${skipped} skipped${existsSync(out) ? `, in ${out}` : ""}`);
