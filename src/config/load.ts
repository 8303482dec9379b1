// The effective config: defaults, then the user's file, then the project's file
// (only while it is trusted), then the environment, key by key, each value with
// where it came from. Declarative filters come from both files; a project
// filter replaces the user's filter of the same name, and project filters are
// tried first. Asked for (`rtk config`, `rtk verify`), rtk's built-in filters
// come last, each replaced by a file's filter of its name; a run does not read
// them here (its route names the built-in it needs).
import { readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { makeDirs } from "../fs/make-dirs.js";
import { configFromToml, formatIssue, type BrokenFilter, type ConfigIssue, type FileConfig } from "./file.js";
import { dataDir, findProjectConfig, userConfigPath, type Env } from "./paths.js";
import { SECTION_NAMES, SECTIONS, type FilterDef, type KeyName, type KeySpec, type SectionName, type SettingValues } from "./schema.js";
import { readTrustStore, sha256, trustKey, trustState, type TrustState } from "./trust.js";

export type Source = { kind: "default" } | { kind: "user" | "project"; path: string; line: number } | { kind: "env"; name: string };

export interface Setting<T = unknown> {
  value: T;
  source: Source;
}

/** Every key's setting, its value typed by the schema. */
export type Settings = { [S in SectionName]: { [K in KeyName<S>]: Setting<SettingValues[S][K]> } };

export interface ProjectFileState {
  path: string;
  state: TrustState;
  sha256: string;
}

/**
 * The config that applies: each section's values, typed by the schema
 * (`config.limits.list_tokens` is a number), beside where each came from
 * (`settings`), the filters and the problems found.
 */
export interface EffectiveConfig extends SettingValues {
  user: { path: string; found: boolean };
  /** The nearest project file, applied only when its state is "trusted". */
  project: ProjectFileState | null;
  settings: Settings;
  /** In the order they are tried against a command line. */
  filters: FilterDef[];
  /** The user's filters a project filter of the same name replaces, and the built-ins a file's filter replaces. */
  shadowed: FilterDef[];
  broken: BrokenFilter[];
  /** Problems in the files that apply. */
  issues: ConfigIssue[];
  /** Files not applied (an untrusted or edited project file), one sentence each. */
  warnings: string[];
}

export interface LoadOptions {
  /**
   * Also rtk's built-in filters, after the files' (the caller hands
   * src/filters/library.ts's libraryFilters: the hook path, which loads the
   * config too, must not carry the library).
   */
  builtins?: () => readonly FilterDef[];
}

/** The config for `cwd`, or undefined when it cannot be read (whoever reads it next says why). */
export function tryLoadConfig(env: Env, cwd: string): EffectiveConfig | undefined {
  try {
    return loadConfig(env, cwd);
  } catch {
    return undefined;
  }
}

export function loadConfig(env: Env, cwd: string, options: LoadOptions = {}): EffectiveConfig {
  const userPath = userConfigPath(env);
  const issues: ConfigIssue[] = [];
  const warnings: string[] = [];
  const user = readConfigFile(userPath, issues);
  const { project, projectCfg } = readProjectConfig(env, cwd, userPath, issues, warnings);
  const settings = layeredSettings(env, user, projectCfg);
  warnings.push(...settingWarnings(settings));
  userOnlyTelemetry(settings, env, user);
  environmentSettings(settings, env);

  const projectNames = new Set([...(projectCfg?.filters ?? []), ...(projectCfg?.broken ?? [])].map((f) => f.name));
  const filters = [...(projectCfg?.filters ?? []), ...(user?.filters ?? []).filter((f) => !projectNames.has(f.name))];
  const shadowed = (user?.filters ?? []).filter((f) => projectNames.has(f.name));
  const broken = [...(projectCfg?.broken ?? []), ...(user?.broken ?? []).filter((f) => !projectNames.has(f.name))];
  if (options.builtins) {
    const named = new Set([...filters, ...broken, ...shadowed].map((f) => f.name));
    for (const b of options.builtins()) (named.has(b.name) ? shadowed : filters).push(b);
  }
  issues.push(...(user?.issues ?? []), ...(projectCfg?.issues ?? []));
  return { ...valuesOf(settings), user: { path: userPath, found: user !== null }, project, settings, filters, shadowed, broken, issues, warnings };
}

/** Each section's values, as the settings hold them once every layer is applied. */
function valuesOf(settings: Settings): SettingValues {
  const values: Record<string, Record<string, unknown>> = {};
  for (const section of SECTION_NAMES) {
    const own: Record<string, unknown> = (values[section] = {});
    for (const [key, s] of Object.entries(settings[section]) as [string, Setting][]) own[key] = s.value;
  }
  return values as SettingValues;
}

/** The nearest project file and its trust; its config only while it is trusted (else a warning says why not). */
function readProjectConfig(env: Env, cwd: string, userPath: string, issues: ConfigIssue[], warnings: string[]): { project: ProjectFileState | null; projectCfg: FileConfig | null } {
  const found = findProjectConfig(cwd, env);
  const projectPath = found && trustKey(found);
  if (!projectPath || projectPath === userPath) return { project: null, projectCfg: null };
  const content = readBytes(projectPath, issues);
  if (!content) return { project: null, projectCfg: null };
  const store = readTrustStore(env);
  const project: ProjectFileState = { path: projectPath, state: trustState(store, projectPath, content), sha256: sha256(content) };
  if (project.state === "trusted") return { project, projectCfg: configFromToml(content.toString("utf8"), projectPath) };
  if (store.problem) warnings.push(`rtk: ${projectPath} is ignored: the trust store cannot be used (${store.problem})`);
  else if (project.state === "changed") warnings.push(`rtk: ${projectPath} changed since it was trusted, so it is ignored; run \`rtk trust\` to apply it again`);
  else warnings.push(`rtk: ${projectPath} is not trusted, so it is ignored; run \`rtk trust\` to apply it`);
  return { project, projectCfg: null };
}

/** Every key's default, then the user's value, then the project's, each with where it came from. */
function layeredSettings(env: Env, user: FileConfig | null, projectCfg: FileConfig | null): Settings {
  const read: Record<string, Record<string, Setting>> = {};
  for (const section of SECTION_NAMES) {
    read[section] = {};
    for (const [key, spec] of Object.entries(SECTIONS[section]) as [string, KeySpec][]) {
      let setting: Setting = { value: spec.default(env), source: { kind: "default" } };
      for (const [kind, file] of [
        ["user", user],
        ["project", projectCfg],
      ] as const) {
        const own: Readonly<Record<string, unknown>> | undefined = file?.values[section];
        if (!file || !own || !Object.hasOwn(own, key)) continue;
        const source = {
          kind,
          path: file.path,
          // Found in the text only when asked for (`rtk config`): the hook path never needs it.
          get line() {
            return file.line([section, key]);
          },
        };
        setting = { value: own[key], source };
      }
      read[section]![key] = setting;
    }
  }
  // Every value is its key's default or what its key's own check returned: the types of the schema.
  return read as Settings;
}

/** A retired key set in a file, and telemetry keys set in a project's file. */
function settingWarnings(settings: Settings): string[] {
  const warnings: string[] = [];
  // A retired key still loads (an old config keeps working); its value is not used.
  const maxLines = settings.limits.max_lines;
  if (maxLines.source.kind !== "default") {
    warnings.push(
      `rtk: config warning: ${maxLines.source.kind === "env" ? "" : `${(maxLines.source as { path: string }).path}: `}limits.max_lines is retired and ignored; limits.list_tokens (default 2000) is the budget of every list output, declarative filters included`,
    );
  }
  const fromProject = (Object.values(settings.telemetry) as Setting[]).find((s) => s.source.kind === "project");
  if (fromProject) warnings.push(`rtk: config warning: ${(fromProject.source as { path: string }).path}: [telemetry] is read from the user's config only; ignored here`);
  return warnings;
}

/** Where the records go is the user's choice alone: a project's file (trusted for its filters) has no say. */
function userOnlyTelemetry(settings: Settings, env: Env, user: FileConfig | null): void {
  const telemetry = settings.telemetry as Record<string, Setting>;
  for (const [key, spec] of Object.entries(SECTIONS.telemetry) as [string, KeySpec][]) {
    if (telemetry[key]!.source.kind !== "project") continue;
    const mine: Readonly<Record<string, unknown>> | undefined = user?.values.telemetry;
    const own = user && mine && Object.hasOwn(mine, key) ? { value: mine[key], source: { kind: "user" as const, path: user.path, line: user.line(["telemetry", key]) } } : null;
    telemetry[key] = own ?? { value: spec.default(env), source: { kind: "default" } };
  }
}

/** The environment variables that override a file's setting. */
function environmentSettings(settings: Settings, env: Env): void {
  const switched = env["RTK_TELEMETRY"];
  if (switched === "1" || switched === "0") settings.telemetry.enabled = { value: switched === "1", source: { kind: "env", name: "RTK_TELEMETRY" } };
  if (env["RTK_NO_TRACK"] === "1") settings.tracking.enabled = { value: false, source: { kind: "env", name: "RTK_NO_TRACK" } };
  const passthrough = env["RTK_PASSTHROUGH_TOKENS"];
  if (passthrough !== undefined && /^\d+$/.test(passthrough)) settings.limits.passthrough_tokens = { value: Number(passthrough), source: { kind: "env", name: "RTK_PASSTHROUGH_TOKENS" } };
}

/** The warning for a config problem on a path that must not fail (the hook, the runtime). */
export function issueWarning(i: ConfigIssue): string {
  return `rtk: config warning: ${formatIssue(i)} (ignored)`;
}

/** Every problem of the config as one warning each: what the hook and the runtime do instead of failing. */
/**
 * Warns about the config's problems on the run and hook paths. With `env`, the
 * same problems of unchanged files are said once, not on every run (each would
 * land in the agent's context again): a stamp of them is kept in rtk's data
 * folder. `rtk config` and `rtk verify` always report them.
 */
export function warnConfigProblems(cfg: EffectiveConfig, warn: (msg: string) => void, env?: Env): void {
  const messages = [...cfg.warnings, ...cfg.issues.map(issueWarning)];
  if (!messages.length) return;
  const stamp = env ? problemStamp(cfg, messages) : null;
  const file = env ? join(dataDir(env), "config-warned") : null;
  if (file && stamp && readStamp(file) === stamp) return;
  for (const m of messages) warn(m);
  if (file && stamp) writeStamp(file, stamp);
}

/** The problems and the files they are in, as they are now (a file saved again counts as changed). */
function problemStamp(cfg: EffectiveConfig, messages: readonly string[]): string {
  const files = [cfg.user.path, cfg.project?.path]
    .filter((f): f is string => !!f)
    .map((f) => {
      try {
        const st = statSync(f);
        return `${f}\0${st.size}\0${st.mtimeMs}`;
      } catch {
        return `${f}\0-`;
      }
    });
  return sha256(Buffer.from([...files, ...messages].join("\n"), "utf8"));
}

function readStamp(file: string): string | null {
  try {
    return readFileSync(file, "utf8").trim();
  } catch {
    return null;
  }
}

function writeStamp(file: string, stamp: string): void {
  try {
    makeDirs(dirname(file), 0o700);
    writeFileSync(file, stamp + "\n", { mode: 0o600 });
  } catch {
    // Not kept: the warning is said again next time.
  }
}

function readConfigFile(path: string, issues: ConfigIssue[]): FileConfig | null {
  const content = readBytes(path, issues);
  return content ? configFromToml(content.toString("utf8"), path) : null;
}

function readBytes(path: string, issues: ConfigIssue[]): Buffer | null {
  try {
    return readFileSync(path);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "ENOENT") issues.push({ file: path, line: 0, key: "", message: `cannot be read: ${(e as Error).message}` });
    return null;
  }
}
