// A V8 code cache for the full CLI bundle: meta-commands (help, init, gain, …)
// load it from a snapshot start, and compiling 1.8 MB of script cost
// them more than the rest of their start. The cache sits beside the snapshot it
// was made with, for the same Node binary; V8 checks its version, flags and the
// source, and a cache it rejects costs nothing but the compile it would have done.
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, writeSync } from "node:fs";
import Module, { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import vm from "node:vm";

/** The bundles loaded from a snapshot start, their caches, and what warms each before it is saved. */
export const CODE_CACHES: readonly { bundle: string; warm: string[] | null }[] = [
  { bundle: "rtk-report.cjs", warm: null },
  { bundle: "rtk-main.cjs", warm: ["explain", "git status && npm test | head"] },
];

/** The cache file of `bundle` in `dir`: `rtk-main.cjs` → `<dir>/rtk-main.cache`. */
export function cacheIn(dir: string, bundle: string): string {
  return join(dir, basename(bundle, ".cjs") + ".cache");
}

/** The cache file for `bundle` beside the snapshot blob this process started from, or null for a plain start. */
export function cacheBeside(execArgv: readonly string[], bundle: string): string | null {
  const at = execArgv.indexOf("--snapshot-blob");
  const blob = at >= 0 ? execArgv[at + 1] : execArgv.find((a) => a.startsWith("--snapshot-blob="))?.slice("--snapshot-blob=".length);
  return blob ? cacheIn(dirname(blob), bundle) : null;
}

/** `require(file)`, compiled with the code cache `cache` when there is one V8 accepts. */
export function requireCached(file: string, cache: string | null): unknown {
  return loadCached(file, cache).exports;
}

/** `requireCached`, and whether V8 took the cache (null: there was none to offer). */
export function loadCached(file: string, cache: string | null): { exports: unknown; accepted: boolean | null } {
  const data = cache ? readOrNull(cache) : null;
  const compiled = data ? compile(file, data) : null;
  if (!compiled) return { exports: createRequire(file)(file), accepted: null };
  return { exports: evaluate(compiled, file), accepted: !compiled.cachedDataRejected };
}

/**
 * `file` evaluated as a module, and `save`, which writes what V8 has compiled of
 * it so far to a cache file (functions compiled lazily since are in it too):
 * through a temporary file renamed into place, owner-only.
 */
export function compileForCache(file: string): { exports: unknown; save(cache: string): void } {
  const script = compile(file, null)!;
  return { exports: evaluate(script, file), save: (cache) => save(script, cache) };
}

function save(script: vm.Script, cache: string): void {
  const data = script.createCachedData();
  const tmp = `${cache}.${process.pid}.tmp`;
  try {
    const fd = openSync(tmp, "w", 0o600);
    try {
      writeSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(tmp, cache);
  } finally {
    rmSync(tmp, { force: true });
  }
}

function compile(file: string, cachedData: Buffer | null): vm.Script | null {
  let source: string;
  try {
    source = readFileSync(file, "utf8");
  } catch {
    return null;
  }
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    ...(cachedData ? { cachedData } : {}),
    // The bundle's own import() calls resolve as they would under require().
    importModuleDynamically: vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  } as vm.ScriptOptions);
  // A rejected cache leaves a script compiled from its source, as require() would have.
  return script;
}

function evaluate(script: vm.Script, file: string): unknown {
  const mod = new Module(file);
  mod.filename = file;
  mod.paths = (Module as unknown as { _nodeModulePaths(dir: string): string[] })._nodeModulePaths(dirname(file));
  const wrapper = script.runInThisContext() as (exports: unknown, require: NodeJS.Require, module: Module, filename: string, dirname: string) => void;
  wrapper.call(mod.exports, mod.exports, createRequire(file), mod, file, dirname(file));
  mod.loaded = true;
  return mod.exports;
}

function readOrNull(file: string): Buffer | null {
  try {
    return readFileSync(file);
  } catch {
    return null;
  }
}
