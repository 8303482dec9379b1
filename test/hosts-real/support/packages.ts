// The hosts' own programs, from the npm registry at pinned versions, installed
// once into a cache folder shared by every run (RTK_REAL_HOSTS_CACHE, default
// /var/tmp/rtk-real-hosts-cache, readable by the sandbox user). Not under /tmp: the
// corpus lists /tmp (`tree /tmp`), and gigabytes of the hosts' own files there would
// make that output, and what a host does with an output that large, the cache's.
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface HostPackage {
  /** The npm package that holds the host's CLI. */
  name: string;
  version: string;
  /** The executable inside the install folder, relative to it. */
  bin: string;
}

export function cacheRoot(): string {
  return process.env["RTK_REAL_HOSTS_CACHE"] || join(existsSync("/var/tmp") ? "/var/tmp" : tmpdir(), "rtk-real-hosts-cache");
}

/** Where `pkg` is installed, installing it first when it is not; null (with the reason) when the registry cannot provide it. */
export function installed(pkg: HostPackage): { dir: string; bin: string } | { error: string } {
  const root = cacheRoot();
  const dir = join(root, `${pkg.name.replace(/[@/]/g, "_")}@${pkg.version}`);
  const bin = join(dir, pkg.bin);
  if (existsSync(join(dir, ".complete")) && existsSync(bin)) return { dir, bin };
  mkdirSync(root, { recursive: true, mode: 0o755 });
  chmodSync(root, 0o755);
  const staging = `${dir}.part-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true });
  writeFileSync(join(staging, "package.json"), JSON.stringify({ name: "rtk-real-host", private: true }));
  // Install scripts run: some hosts put their native binary in place from one.
  const env = { ...process.env };
  if (env["RTK_TEST_NODE_EXTRA_CA_CERTS"]) env["NODE_EXTRA_CA_CERTS"] = env["RTK_TEST_NODE_EXTRA_CA_CERTS"];
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock", "--prefer-offline", "--foreground-scripts", `${pkg.name}@${pkg.version}`], {
    cwd: staging,
    env,
    encoding: "utf8",
    timeout: 600_000,
  });
  if (r.status !== 0) {
    rmSync(staging, { recursive: true, force: true });
    return { error: `npm install ${pkg.name}@${pkg.version} failed: ${(r.stderr || r.error?.message || "").trim().split("\n").slice(-3).join(" ")}` };
  }
  writeFileSync(join(staging, ".complete"), "");
  rmSync(dir, { recursive: true, force: true });
  renameSync(staging, dir);
  spawnSync("chmod", ["-R", "a+rX", dir]);
  if (!existsSync(bin)) return { error: `${pkg.name}@${pkg.version} installed, but ${pkg.bin} is not in it` };
  return { dir, bin };
}
