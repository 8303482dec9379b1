// `rtk trust [path]`: applies a project's `.rtk/config.toml` by pinning its
// SHA-256 (the file found from the working folder, or the one given); the file
// applies until its content changes. `--revoke [path]` forgets it, `--list`
// shows every pinned file and whether it still matches.
import { readFileSync, statSync } from "node:fs";
import { join, resolve } from "node:path";
import { configFromToml, formatIssue } from "../config/file.js";
import { findProjectConfig, PROJECT_CONFIG } from "../config/paths.js";
import { readTrustStore, sha256, trustKey, writeTrustStore, type TrustStore } from "../config/trust.js";
import { parseOptions } from "./args.js";
import { usageError } from "./help.js";

export function trustCli(args: string[]): number {
  const opts = parseOptions("trust", args, { boolean: ["revoke", "list"] });
  if (typeof opts === "number") return opts;
  const positional = opts._.map(String);
  if (positional.length > 1) return usageError("trust", `one path at a time, not \`${positional.join(" ")}\``);
  if (opts["list"] && (opts["revoke"] || positional.length)) return usageError("trust", "--list takes no path and no --revoke");
  const env = process.env;
  const store = readTrustStore(env);
  if (store.problem) {
    process.stderr.write(`rtk trust: the trust store cannot be used: ${store.problem}\n  (remove ${store.path} to start over; every project file is then untrusted)\n`);
    return 1;
  }
  if (opts["list"]) return list(store);

  const file = target(positional[0], env);
  if (file === null) return 1;
  const key = trustKey(file);
  if (opts["revoke"]) {
    if (!store.entries.delete(key)) {
      process.stdout.write(`${key} was not trusted\n`);
      return 0;
    }
    return save(store, `revoked ${key}: it is ignored from now on\n`);
  }

  let content: Buffer;
  try {
    content = readFileSync(key);
  } catch (e) {
    process.stderr.write(`rtk trust: cannot read ${key}: ${(e as Error).message}\n`);
    return 1;
  }
  const hash = sha256(content);
  store.entries.set(key, { sha256: hash, trustedAt: new Date().toISOString() });
  const cfg = configFromToml(content.toString("utf8"), key);
  const lines = [`trusted ${key}`, `  sha256 ${hash}`];
  const keys = Object.entries(cfg.values).flatMap(([section, set]) => Object.keys(set).map((key) => `${section}.${key}`));
  lines.push(`  sets: ${keys.length ? keys.join(", ") : "no keys"}`);
  lines.push(`  filters: ${cfg.filters.length ? cfg.filters.map((f) => `${f.name} (match ${JSON.stringify(f.definition["match"])})`).join(", ") : "none"}`);
  lines.push("It applies until the file changes; `rtk config` shows the effective config.");
  const code = save(store, lines.join("\n") + "\n");
  for (const i of cfg.issues) process.stderr.write(`rtk trust: warning: ${formatIssue(i)}\n`);
  return code;
}

/** The file to trust: the one given (a folder stands for its `.rtk/config.toml`), else the project's. */
function target(arg: string | undefined, env: NodeJS.ProcessEnv): string | null {
  if (arg === undefined) {
    const found = findProjectConfig(process.cwd(), env);
    if (found === null) process.stderr.write(`rtk trust: no ${PROJECT_CONFIG} in ${process.cwd()} or a folder above it (up to HOME)\n`);
    return found;
  }
  let file = resolve(arg);
  try {
    if (statSync(file).isDirectory()) file = join(file, PROJECT_CONFIG);
  } catch {
    // Not there: a revoke may still name a file that was removed.
  }
  return file;
}

function list(store: TrustStore): number {
  if (!store.entries.size) {
    process.stdout.write("no trusted project files\n");
    return 0;
  }
  for (const [file, e] of store.entries) {
    let state: string;
    try {
      state = sha256(readFileSync(file)) === e.sha256 ? "ok     " : "changed";
    } catch {
      state = "missing";
    }
    process.stdout.write(`${state}  ${file}  sha256 ${e.sha256.slice(0, 12)}  trusted ${e.trustedAt}\n`);
  }
  return 0;
}

function save(store: TrustStore, message: string): number {
  try {
    writeTrustStore(store);
  } catch (e) {
    process.stderr.write(`rtk trust: cannot write ${store.path}: ${(e as Error).message}\n`);
    return 1;
  }
  process.stdout.write(message);
  return 0;
}
