// `rtk init`: installs and removes rtk's own entry and nothing else. Settings
// files are patched surgically and written atomically (temp file and rename in
// the target's folder, so a symlinked file stays a symlink). The previous
// content is kept in rtk's data folder while the file is written and checked,
// never beside the user's file, and removed once the change is verified. A file
// or folder rtk created is recorded there too, so that uninstalling removes it
// and leaves one the user had (even an empty one) as it was.
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, lstatSync, readdirSync, readFileSync, realpathSync, renameSync, rmdirSync, statSync, unlinkSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { dataDir } from "../config/paths.js";
import { isDeepStrictEqual } from "node:util";
import { parse } from "../../grammar/parse.js";
import { literalValue } from "../ast/literal.js";
import { unifiedDiff } from "./diff.js";
import { appendItem, appendMember, applyEdit, JsonSyntaxError, member, parseJson, plain, removeItem, removeMember, type JNode } from "./json-edit.js";
import { parse as parseToml } from "smol-toml";
import type { FileTarget, HostInstall, JsonEntries, JsonTarget, RtkPaths, Scope, Target, TomlTarget, Where } from "./types.js";
import { makeDirs } from "../fs/make-dirs.js";

export type Action = "installed" | "updated" | "unchanged" | "removed" | "absent" | "error";

export interface InitReport {
  host: string;
  file: string;
  action: Action;
  message: string;
  /** The change as a unified diff (for --dry-run). */
  diff: string;
}

export interface InitRequest {
  host: HostInstall;
  scope: Scope;
  uninstall: boolean;
  dryRun: boolean;
  where: Where;
  paths: RtkPaths;
}

export const BLOCK_BEGIN = "<!-- rtk:begin -->";
export const BLOCK_END = "<!-- rtk:end -->";
export const TOML_BEGIN = "# rtk:begin";
export const TOML_END = "# rtk:end";

/**
 * The command a hook runs. A user's own file names the absolute launcher (hooks
 * may run with a reduced PATH); a project's file is shared by everyone who
 * clones it, so it names `rtk` as found on PATH, not one person's checkout.
 * It does nothing where that rtk is gone (uninstalled, or a teammate without
 * it): the test fails, `true` ends the hook with exit 0 and no answer, and the
 * call goes on as typed, where a bare `…/rtk hook` would fail every call with
 * 127. The form reads the same in sh, bash, zsh and fish (Codex runs a hook in
 * the user's `$SHELL`) and in Crush's built-in shell.
 */
export function hookCommand(bin: string, host: string, scope: Scope = "global"): string {
  if (scope === "project") return `command -v rtk >/dev/null 2>&1 && exec rtk hook ${host}; true`;
  const quoted = /^[A-Za-z0-9_/.,:@%+=-]+$/.test(bin) ? bin : `'${bin.replace(/'/g, "'\\''")}'`;
  return `test -x ${quoted} && exec ${quoted} hook ${host}; true`;
}

/** The call inside a guarded hook command (for a host that runs it without a POSIX shell), or the command as it is. */
export function unguarded(command: string): string {
  return GUARDED.exec(command)?.groups!["call"] ?? command;
}

/** The guard hookCommand writes: `test -x <launcher>`, or `command -v rtk` (no launcher: the one on PATH). */
const GUARDED = /^(?:test -x (?<launcher>.+)|command -v rtk >\/dev\/null 2>&1) && exec (?<call>.+); true$/;

/**
 * The rtk a hook command starts, where the command is rtk's for this host: `…/rtk hook <host>`
 * (read with rtk's own parser), bare as an earlier rtk wrote it or inside its guard.
 */
export function hookBinary(command: string, host: string): string | null {
  const guard = GUARDED.exec(command)?.groups;
  const bin = binaryOf(guard?.["call"] ?? command, host);
  if (!guard || bin === null) return bin;
  // The guard tests the rtk the call starts.
  const tested = guard["launcher"] === undefined ? "rtk" : binaryOf(`${guard["launcher"]} hook ${host}`, host);
  return tested === bin ? bin : null;
}

/** Whether a hook command is rtk's for this host. */
export const isOurCommand = (command: string, host: string): boolean => hookBinary(command, host) !== null;

function binaryOf(command: string, host: string): string | null {
  const r = parse(command);
  if (!r.ok || r.script.stmts.length !== 1) return null;
  const cmd = r.script.stmts[0]!.cmd;
  if (cmd.kind !== "SimpleCommand" || cmd.assigns.length || cmd.redirects.length) return null;
  const words = cmd.words.map(literalValue);
  const bin = words[0];
  return words.length === 3 && !!bin && (bin === "rtk" || bin.endsWith("/rtk")) && words[1] === "hook" && words[2] === host ? bin : null;
}

export function init(req: InitRequest): InitReport {
  const scopeFile = req.host.scopes[req.scope];
  if (!scopeFile) {
    const scopes = Object.keys(req.host.scopes).join(" or ");
    return report(req, "", "error", `${req.host.title} has no ${req.scope} install (use --${scopes})`, "");
  }
  const file = scopeFile(req.where);
  let old: string | null;
  try {
    old = readText(file);
  } catch (e) {
    return report(req, file, "error", `${display(file)}: cannot read it (${(e as Error).message}); it was left untouched`, "");
  }
  const records = installRecords(req.where);
  const record = records.get(file);
  // Untouched since rtk installed into it: uninstalling puts back exactly what was there.
  const restore = req.uninstall && record !== undefined && old === record.after;
  const createdByRtk = record?.before === null;
  let next: string | null | Failure;
  if (restore) next = record.before;
  else
    switch (req.host.target.kind) {
      case "json":
        next = req.uninstall
          ? jsonUninstall(old, req.host.target, req.host.name, createdByRtk)
          : jsonInstall(old, req.host.target, hookCommand(req.paths.bin, req.host.name, req.scope), req.host.name);
        break;
      case "file":
        next = fileChange(old, req.host.target, req.paths, req.uninstall);
        break;
      case "block": {
        const t = req.host.target;
        next = markedChange(old, typeof t.content === "function" ? t.content() : t.content, BLOCK_BEGIN, BLOCK_END, req.uninstall, createdByRtk);
        break;
      }
      case "toml":
        next = tomlChange(old, req.host.target, hookCommand(req.paths.bin, req.host.name, req.scope), req.uninstall, createdByRtk);
        break;
    }
  if (next instanceof Failure) return report(req, file, "error", `${display(file)}: ${next.message}`, "");
  if (next === old) {
    if (req.uninstall && record) records.remove(file);
    return report(
      req,
      file,
      req.uninstall ? "absent" : "unchanged",
      req.uninstall ? `${req.host.title}: nothing of rtk's in ${display(file)}; nothing changed` : `${req.host.title}: already installed in ${display(file)}; nothing changed`,
      "",
    );
  }
  const diff = unifiedDiff(old ?? "", next ?? "", display(file));
  const action: Action = req.uninstall ? "removed" : old !== null && hasOurs(old, req) ? "updated" : "installed";
  if (req.dryRun) return report(req, file, action, `${req.host.title}: would ${verb(action, next === null)} ${display(file)} (dry run, nothing written)`, diff);
  const dirsBefore = req.uninstall ? [] : missingDirs(file);
  try {
    writeVerified(file, old, next, req.where, (text) => (restore ? text === next : (text !== null && hasOurs(text, req)) !== req.uninstall));
  } catch (e) {
    return report(req, file, "error", `${display(file)}: ${(e as Error).message}`, diff);
  }
  if (req.uninstall) {
    if (record) records.remove(file);
    if (next === null) removeCreatedDirs(record?.dirs ?? []);
  } else if (record) records.put(file, { ...record, after: next! });
  else if (old === null || !hasOurs(old, req)) records.put(file, { before: old, after: next!, dirs: dirsBefore });
  const note = !req.uninstall && req.host.note ? `\n${req.host.note}` : "";
  return report(req, file, action, `${req.host.title}: ${done(action, next === null, req.host.target, display(file))}${note}`, diff);
}

function verb(a: Action, gone: boolean): string {
  return a === "removed" ? (gone ? "remove" : "remove rtk's entry from") : a === "updated" ? "update rtk's entry in" : "install into";
}

/** What was done, as the user meets it: a file that is still there had rtk's part removed from it. */
function done(a: Action, gone: boolean, target: Target, file: string): string {
  const kind = target.kind;
  const part = kind === "json" || kind === "toml" ? "hook" : kind === "block" ? "rules block" : (target.what ?? "plugin");
  if (a === "removed") return gone ? `${part} removed (${file} deleted: rtk had created it)` : `${part} removed from ${file}`;
  return a === "updated" ? `${part} updated in ${file}` : `${part} installed in ${file}`;
}

function report(req: InitRequest, file: string, action: Action, message: string, diff: string): InitReport {
  return { host: req.host.name, file, action, message, diff };
}

class Failure {
  constructor(readonly message: string) {}
}

function display(file: string): string {
  const home = process.env["HOME"];
  return home && file.startsWith(home + "/") ? "~" + file.slice(home.length) : file;
}

function readText(file: string): string | null {
  try {
    return readFileSync(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw e;
  }
}

// ---- JSON settings ----------------------------------------------------------------

interface Found {
  /** The entries array it is in. */
  path: readonly string[];
  /** Index of the item in the entries array. */
  item: number;
  /** Index of the hook inside the item's own `hooks` list (matcher groups), or null for a flat entry. */
  hook: number | null;
  /** The key that holds the command. */
  key: string;
  command: Extract<JNode, { t: "str" }>;
}

function entriesArray(root: JNode, path: readonly string[]): Extract<JNode, { t: "arr" }> | null {
  let n: JNode | undefined = root;
  for (const k of path) n = member(n, k);
  return n?.t === "arr" ? n : null;
}

/** Every array rtk's entry may be in: where init puts it, then where an earlier rtk did, then its other entries'. */
const allPaths = (target: JsonTarget): (readonly string[])[] => [target.arrayPath, ...(target.earlier ?? []), ...(target.extra ?? []).map((e) => e.arrayPath)];

/** The arrays init puts rtk's entries in, each with its entries. */
const groupsOf = (target: JsonTarget): JsonEntries[] => [{ arrayPath: target.arrayPath, entries: target.entries, ...(target.owns ? { owns: target.owns } : {}) }, ...(target.extra ?? [])];

function findOurs(root: JNode, target: JsonTarget, host: string, paths = allPaths(target)): Found[] {
  return paths.flatMap((path) => findOursAt(root, target, host, path));
}

/** rtk's entries of one group: in its array, and, where the array is shared, the ones the group owns. */
function findGroup(root: JNode, target: JsonTarget, host: string, group: JsonEntries): Found[] {
  const found = findOursAt(root, target, host, group.arrayPath);
  if (!group.owns || !found.length) return found;
  const items = entriesArray(root, group.arrayPath)!.items;
  return found.filter((f) => group.owns!(plain(items[f.item]!)));
}

function findOursAt(root: JNode, target: JsonTarget, host: string, path: readonly string[]): Found[] {
  const arr = entriesArray(root, path);
  const keys = target.commandKeys ?? ["command"];
  const found: Found[] = [];
  const ours = (n: JNode | undefined) => {
    const out: { key: string; command: Extract<JNode, { t: "str" }> }[] = [];
    for (const key of keys) {
      const c = member(n, key);
      if (c?.t === "str" && isOurCommand(c.value, host)) out.push({ key, command: c });
    }
    return out;
  };
  arr?.items.forEach((item, i) => {
    const hooks = member(item, "hooks");
    if (hooks?.t === "arr") {
      hooks.items.forEach((h, j) => {
        for (const c of ours(h)) found.push({ path, item: i, hook: j, ...c });
      });
      return;
    }
    const direct = ours(item);
    for (const c of direct.length ? direct : ours(member(item, "action"))) found.push({ path, item: i, hook: null, ...c });
  });
  return found;
}

function parseSettings(text: string): JNode | Failure {
  try {
    const root = parseJson(text);
    return root.t === "obj" ? root : new Failure("the top level is not a JSON object; it was left untouched");
  } catch (e) {
    if (!(e instanceof JsonSyntaxError)) throw e;
    const before = text.slice(0, e.offset);
    const line = before.split("\n").length;
    const column = e.offset - before.lastIndexOf("\n");
    return new Failure(`not valid JSON (line ${line}, column ${column}: ${e.message}); it was left untouched`);
  }
}

const nest = (path: readonly string[], leaf: unknown): unknown => path.reduceRight<unknown>((v, k) => ({ [k]: v }), leaf);

function jsonInstall(old: string | null, target: JsonTarget, command: string, host: string): string | Failure {
  const groups = groupsOf(target);
  const byHand = `add by hand ${groups.map((g) => `under "${g.arrayPath.join(".")}": ${JSON.stringify(g.entries(command))}`).join(", and ")}`;
  if (old === null || old.trim() === "") {
    const doc: Record<string, unknown> = { ...target.skeleton };
    for (const g of groups) appendAt(doc, g.arrayPath, g.entries(command));
    return JSON.stringify(doc, null, 2) + "\n";
  }
  const root = parseSettings(old);
  if (root instanceof Failure) return new Failure(`${root.message}; ${byHand}`);
  const unfit = target.unfit?.(plain(root) as Record<string, unknown>);
  if (unfit) return new Failure(`${unfit}; it was left untouched`);
  // An entry an earlier rtk left elsewhere moves to where the current one goes.
  let text = old;
  for (const path of target.earlier ?? []) text = removeOurs(text, target, host, path);
  for (const g of groups) {
    const found = findGroup(parseSettings(text) as JNode, target, host, g);
    if (found.length) {
      // Our entry is there: only its command may need the current path.
      for (const f of [...found].reverse()) {
        const want = target.plainKeys?.includes(f.key) ? unguarded(command) : command;
        if (f.command.value !== want) text = applyEdit(text, { start: f.command.start, end: f.command.end, text: JSON.stringify(want) });
      }
      continue;
    }
    const added = appendEntries(text, g.arrayPath, g.entries(command), byHand);
    if (added instanceof Failure) return added;
    text = added;
  }
  return text;
}

/** `doc` with `items` appended to the array at `path`, it and the objects on the way made where missing. */
function appendAt(doc: Record<string, unknown>, path: readonly string[], items: unknown[]): void {
  let o = doc;
  for (const k of path.slice(0, -1)) o = (o[k] && typeof o[k] === "object" ? o[k] : (o[k] = {})) as Record<string, unknown>;
  const last = path[path.length - 1]!;
  o[last] = [...(Array.isArray(o[last]) ? o[last] : []), ...items];
}

/** `text` (valid settings) with `entries` appended to the array at `arrayPath`, made where missing. */
function appendEntries(text: string, arrayPath: readonly string[], entries: unknown[], byHand: string): string | Failure {
  for (const entry of entries) {
    const root = parseSettings(text) as JNode;
    let node: JNode = root;
    for (let k = 0; k < arrayPath.length; k++) {
      const key = arrayPath[k]!;
      const child = member(node, key);
      const last = k === arrayPath.length - 1;
      if (!child) {
        if (node.t !== "obj") return new Failure(`unexpected shape at "${key}"; it was left untouched; ${byHand}`);
        text = applyEdit(text, appendMember(text, node, key, nest(arrayPath.slice(k + 1), [entry])));
        break;
      }
      if (last) {
        if (child.t !== "arr") return new Failure(`"${arrayPath.join(".")}" is not a list; it was left untouched; ${byHand}`);
        text = applyEdit(text, appendItem(text, child, entry));
      } else if (child.t !== "obj") {
        return new Failure(`"${key}" is not an object; it was left untouched; ${byHand}`);
      }
      node = child;
    }
  }
  return text;
}

function jsonUninstall(old: string | null, target: JsonTarget, host: string, createdByRtk: boolean): string | null | Failure {
  if (old === null) return null;
  if (old.trim() === "") return old;
  const root = parseSettings(old);
  if (root instanceof Failure) return root;
  let text = old;
  for (const path of allPaths(target)) text = removeOurs(text, target, host, path);
  if (text === old) return old;
  const rest = plain(parseSettings(text) as JNode);
  // A file rtk created and that holds nothing else goes; a file the user had stays, even if it is left empty.
  return createdByRtk && (isDeepStrictEqual(rest, {}) || isDeepStrictEqual(rest, target.skeleton)) ? null : text;
}

/** `text` (valid settings) without rtk's entries in the array at `path`, and without the containers that leaves empty. */
function removeOurs(text: string, target: JsonTarget, host: string, path: readonly string[]): string {
  const old = text;
  for (;;) {
    const root = parseSettings(text) as JNode;
    const found = findOurs(root, target, host, [path]);
    const f = found[found.length - 1];
    if (!f) break;
    const arr = entriesArray(root, path)!;
    const group = member(arr.items[f.item], "hooks");
    const edit = f.hook !== null && group?.t === "arr" && group.items.length > 1 ? removeItem(group, f.hook) : removeItem(arr, f.item);
    text = applyEdit(text, edit);
  }
  if (text === old) return old;
  // Containers left empty by the removal go too, down to the file itself.
  for (let depth = path.length; depth >= 1; depth--) {
    const root = parseSettings(text) as JNode;
    const chain: JNode[] = [root];
    for (const k of path.slice(0, depth)) {
      const c = member(chain[chain.length - 1], k);
      if (!c) break;
      chain.push(c);
    }
    if (chain.length !== depth + 1) continue;
    const node = chain[depth]!;
    const empty = (node.t === "arr" && node.items.length === 0) || (node.t === "obj" && node.members.length === 0);
    if (!empty) break;
    const parent = chain[depth - 1] as Extract<JNode, { t: "obj" }>;
    text = applyEdit(
      text,
      removeMember(
        parent,
        parent.members.findIndex((m) => m.key === path[depth - 1]),
      ),
    );
  }
  return text;
}

function hasOurs(text: string, req: InitRequest): boolean {
  const t = req.host.target;
  switch (t.kind) {
    case "json": {
      const root = parseSettings(text);
      return !(root instanceof Failure) && findOurs(root, t, req.host.name).length > 0;
    }
    case "file":
      return text.includes(t.marker);
    case "block":
      return text.includes(BLOCK_BEGIN) && text.includes(BLOCK_END);
    case "toml":
      return text.includes(TOML_BEGIN) && text.includes(TOML_END);
  }
}

// ---- whole files and blocks ---------------------------------------------------------

function fileChange(old: string | null, target: FileTarget, paths: RtkPaths, uninstall: boolean): string | null | Failure {
  if (old !== null && !old.includes(target.marker)) {
    return uninstall ? old : new Failure("exists and was not written by rtk; it was left untouched (move it away to install)");
  }
  return uninstall ? null : target.content(paths);
}

/** Adds, updates or removes rtk's text between the `begin` and `end` marker lines. */
function markedChange(old: string | null, content: string, begin: string, end: string, uninstall: boolean, createdByRtk: boolean): string | null | Failure {
  const block = `${begin}\n${content}\n${end}`;
  const text = old ?? "";
  const start = text.indexOf(begin);
  const endMarker = start >= 0 ? text.indexOf(end, start) : -1;
  if (start >= 0 && endMarker < 0) return new Failure(`has \`${begin}\` without \`${end}\`; it was left untouched`);
  if (uninstall) {
    if (start < 0) return old;
    let to = endMarker + end.length;
    // The block and the blank line before it; a file that had no final newline gets none back.
    const finalNewline = text[to] === "\n";
    if (finalNewline) to++;
    let from = start;
    if (text.slice(0, from).endsWith("\n\n")) from -= finalNewline ? 1 : 2;
    const rest = text.slice(0, from) + text.slice(to);
    return rest === "" && createdByRtk ? null : rest;
  }
  if (start >= 0) return text.slice(0, start) + block + text.slice(endMarker + end.length);
  if (old === null || old === "") return block + "\n";
  // After the user's text, separated by a blank line; uninstalling takes exactly that back.
  return old.endsWith("\n") ? old + "\n" + block + "\n" : old + "\n\n" + block;
}

// ---- TOML settings --------------------------------------------------------------------

function tomlError(text: string): string | null {
  try {
    parseToml(text.replace(/^\uFEFF/, ""));
    return null;
  } catch (e) {
    return (e as Error).message.split("\n")[0] ?? "does not parse";
  }
}

/** rtk's tables at the end of the file; a file that does not parse, or that the tables would break (an inline array of the same key), is left untouched. */
function tomlChange(old: string | null, target: TomlTarget, command: string, uninstall: boolean, createdByRtk: boolean): string | null | Failure {
  const tables = target.tables(command).trimEnd();
  const byHand = `; add by hand:\n${tables}`;
  const bad = old !== null && old.trim() !== "" ? tomlError(old) : null;
  if (bad !== null && !uninstall) return new Failure(`is not valid TOML (${bad}); it was left untouched${byHand}`);
  const next = markedChange(old, tables, TOML_BEGIN, TOML_END, uninstall, createdByRtk);
  if (uninstall || typeof next !== "string") return next;
  const broken = tomlError(next);
  return broken === null ? next : new Failure(`rtk's \`[[${target.arrayKey}]]\` tables would not fit in it (${broken}); it was left untouched${byHand}`);
}

/** The hook command of rtk's tables in the file, if any. */
function tomlCommand(text: string, target: TomlTarget): string | null {
  const start = text.indexOf(TOML_BEGIN);
  const end = start >= 0 ? text.indexOf(TOML_END, start) : -1;
  if (end < 0) return null;
  try {
    const doc = parseToml(text.slice(start + TOML_BEGIN.length, end)) as Record<string, unknown>;
    const first = (doc[target.arrayKey] as Record<string, unknown>[] | undefined)?.[0]?.["command"];
    return typeof first === "string" ? first : null;
  } catch {
    return null;
  }
}

// ---- writing -------------------------------------------------------------------------

/**
 * Writes (or removes) the file atomically, following a symlink to its target,
 * with the old content kept in rtk's data folder meanwhile; reads it back, and
 * restores the old content when `changed` does not hold. The kept copy is
 * removed either way.
 */
function writeVerified(file: string, old: string | null, next: string | null, where: Where, changed: (text: string | null) => boolean): void {
  const backup = old !== null ? keepCopy(file, old, where) : null;
  try {
    write(file, next);
    let check: string | null;
    try {
      check = readText(file);
    } catch {
      check = null;
    }
    if (!changed(check)) {
      write(file, old);
      throw new Error("written, but reading it back does not show the change; the previous content was put back");
    }
  } catch (e) {
    if (old !== null && readTextOrNull(file) !== old) write(file, old);
    throw e;
  } finally {
    if (backup) rmQuiet(backup);
  }
}

function readTextOrNull(file: string): string | null {
  try {
    return readText(file);
  } catch {
    return null;
  }
}

/** A copy of the old content in rtk's data folder (owner-only), for the time of the write. */
function keepCopy(file: string, old: string, where: Where): string {
  const dir = join(dataDir(where.env), "init-backup");
  makeDirs(dir, 0o700);
  const copy = join(dir, `${createHash("sha256").update(file).digest("hex").slice(0, 16)}-${basename(file)}`);
  writeFileSync(copy, old, { mode: 0o600 });
  return copy;
}

function rmQuiet(p: string): void {
  try {
    unlinkSync(p);
  } catch {
    // already gone
  }
  const dir = dirname(p);
  try {
    if (readdirSync(dir).length === 0) rmdirSync(dir);
  } catch {
    // not empty, or gone
  }
}

/** Writes (or, for null, removes) the file atomically, following a symlink to its target. */
function write(file: string, next: string | null): void {
  let target = file;
  let symlink = false;
  try {
    symlink = lstatSync(file).isSymbolicLink();
    target = realpathSync(file);
  } catch {
    makeDirs(dirname(file));
  }
  if (next === null && !symlink) {
    if (existsSync(target)) unlinkSync(target);
    return;
  }
  const mode = existsSync(target) ? statSync(target).mode & 0o777 : 0o644;
  const tmp = join(dirname(target), `.${basename(target)}.rtk-${process.pid}.tmp`);
  writeFileSync(tmp, next ?? "{}\n", { mode, flag: "wx" });
  renameSync(tmp, target);
}

/** The folders above `file` that do not exist yet (the ones an install makes), nearest first. */
function missingDirs(file: string): string[] {
  const out: string[] = [];
  for (let d = dirname(file); !existsSync(d) && dirname(d) !== d; d = dirname(d)) out.push(d);
  return out;
}

function removeCreatedDirs(dirs: string[]): void {
  for (const d of dirs) {
    try {
      if (readdirSync(d).length === 0) rmdirSync(d);
      else return;
    } catch {
      return;
    }
  }
}

interface InstallRecord {
  /** The file before rtk's first install into it (null: there was none). */
  before: string | null;
  /** The file as rtk left it. */
  after: string;
  /** The folders made for it, nearest first. */
  dirs: string[];
}

/**
 * What `rtk init` changed, file by file, kept owner-only in rtk's data folder
 * (never beside the user's files) until the uninstall that restores it.
 */
function installRecords(where: Where) {
  const path = join(dataDir(where.env), "init-records.json");
  const load = (): Record<string, InstallRecord> => {
    try {
      const doc = JSON.parse(readFileSync(path, "utf8")) as unknown;
      return doc && typeof doc === "object" && !Array.isArray(doc) ? (doc as Record<string, InstallRecord>) : {};
    } catch {
      return {};
    }
  };
  const save = (doc: Record<string, InstallRecord>) => {
    try {
      if (Object.keys(doc).length === 0) return rmQuiet(path);
      makeDirs(dirname(path), 0o700);
      const tmp = `${path}.${process.pid}.tmp`;
      writeFileSync(tmp, JSON.stringify(doc, null, 2) + "\n", { mode: 0o600 });
      renameSync(tmp, path);
    } catch {
      // Without the record, uninstalling removes rtk's entry alone (the file itself stays).
    }
  };
  const valid = (r: unknown): r is InstallRecord => {
    const o = r as InstallRecord | null;
    return !!o && (o.before === null || typeof o.before === "string") && typeof o.after === "string" && Array.isArray(o.dirs) && o.dirs.every((d) => typeof d === "string");
  };
  return {
    get(file: string): InstallRecord | undefined {
      const r = load()[file];
      return valid(r) ? r : undefined;
    },
    put(file: string, r: InstallRecord) {
      const doc = load();
      doc[file] = r;
      save(doc);
    },
    remove(file: string) {
      const doc = load();
      if (!(file in doc)) return;
      delete doc[file];
      save(doc);
    },
  };
}

// ---- status ----------------------------------------------------------------------------

export interface InstallStatus {
  host: string;
  title: string;
  scope: Scope;
  file: string;
  installed: boolean;
  /** The hook command found, for JSON targets. */
  command: string | null;
  problem: string | null;
}

export function installStatus(host: HostInstall, scope: Scope, where: Where): InstallStatus | null {
  const scopeFile = host.scopes[scope];
  if (!scopeFile) return null;
  const file = scopeFile(where);
  const base = { host: host.name, title: host.title, scope, file, installed: false, command: null, problem: null };
  let text: string | null;
  try {
    text = readText(file);
  } catch (e) {
    return { ...base, problem: `cannot read: ${(e as Error).message}` };
  }
  if (text === null) return base;
  const t = host.target;
  if (t.kind === "toml") {
    const command = tomlCommand(text, t);
    return { ...base, installed: command !== null, command };
  }
  if (t.kind !== "json") return { ...base, installed: t.kind === "file" ? text.includes(t.marker) : text.includes(BLOCK_BEGIN) };
  const root = parseSettings(text);
  if (root instanceof Failure) return { ...base, problem: root.message };
  const found = findOurs(root, t, host.name);
  return { ...base, installed: found.length > 0, command: found[0]?.command.value ?? null };
}

/** Whether the JSON settings `file` holds rtk's entries of `group` (one of the target's arrays: the session-start entry). */
export function groupInstalled(host: HostInstall, file: string, group: JsonEntries): boolean {
  if (host.target.kind !== "json") return false;
  let text: string | null;
  try {
    text = readText(file);
  } catch {
    return false;
  }
  const root = text === null ? null : parseSettings(text);
  return root !== null && !(root instanceof Failure) && findGroup(root, host.target, host.name, group).length > 0;
}
