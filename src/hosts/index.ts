// Every host rtk knows, in the order `rtk init --show` and `rtk doctor` list them.
// Adding a host is adding its file and a line here.
import { agents } from "./agents.js";
import { antigravity } from "./antigravity.js";
import { claude } from "./claude.js";
import { cline } from "./cline.js";
import { codex } from "./codex.js";
import { continueCli } from "./continue.js";
import { copilot } from "./copilot.js";
import { crush } from "./crush.js";
import { cursor } from "./cursor.js";
import { devin } from "./devin.js";
import { factory } from "./factory.js";
import { gemini } from "./gemini.js";
import { goose } from "./goose.js";
import { kilo } from "./kilo.js";
import { kimi } from "./kimi.js";
import { kiro } from "./kiro.js";
import { none } from "./none.js";
import { opencode } from "./opencode.js";
import { openhands } from "./openhands.js";
import { omp, pi } from "./pi.js";
import { qoder } from "./qoder.js";
import { qwen } from "./qwen.js";
import { roo } from "./roo.js";
import { trae } from "./trae.js";
import { vibe } from "./vibe.js";
import { windsurf } from "./windsurf.js";
import { zed } from "./zed.js";
import type { Host, HostInstall } from "./types.js";

export const HOSTS: readonly Host[] = [
  claude,
  cursor,
  gemini,
  copilot,
  codex,
  kiro,
  opencode,
  pi,
  omp,
  factory,
  devin,
  kimi,
  vibe,
  qwen,
  qoder,
  crush,
  continueCli,
  goose,
  openhands,
  windsurf,
  cline,
  roo,
  kilo,
  trae,
  zed,
  antigravity,
  agents,
  none,
];

/** The host `rtk rewrite --host <name>` means, by its name or an alias. */
export function hostNamed(name: string): Host | undefined {
  return HOSTS.find((h) => h.name === name || h.aliases?.includes(name));
}

/** Every name `--host` takes: the hosts' names and aliases. */
export function hostNames(): string[] {
  return HOSTS.flatMap((h) => [h.name, ...(h.aliases ?? [])]);
}

/** The hosts `rtk hook <name>` answers. */
export const HOOK_HOSTS: ReadonlyMap<string, Host> = new Map(HOSTS.filter((h) => h.hook).map((h) => [h.name, h]));

/** What `rtk init` installs for a host: its hook, and the session-start entry beside it where it has one. */
export function installOf(h: Host & { install: NonNullable<Host["install"]> }): HostInstall {
  const target = h.install.target;
  const session = h.session && target.kind === "json" ? { ...target, extra: [...(target.extra ?? []), h.session] } : target;
  return { name: h.name, title: h.title, ...h.install, target: session };
}

/** What `rtk init` can install, host by host. */
export const INSTALLS: readonly HostInstall[] = HOSTS.flatMap((h) => (h.install ? [installOf(h as Host & { install: NonNullable<Host["install"]> })] : []));

/** What `rtk init --agent <name>` installs, by the host's name or an alias. */
export function installFor(name: string): HostInstall | undefined {
  const host = hostNamed(name);
  return host && INSTALLS.find((i) => i.name === host.name);
}
