// The pattern language of Claude Code's `Bash(…)` rules (also used for the other
// hosts' shell rules): `*`, word prefixes (`git push:*`), globs, exact commands.
// Word boundaries are space, tab and newline; matching is case-sensitive.

const isBlank = (c: string | undefined) => c === " " || c === "\t" || c === "\n";

/** `text` equals `prefix` or continues it after a blank. */
function wordPrefix(prefix: string, text: string): boolean {
  return text === prefix || (text.startsWith(prefix) && isBlank(text[prefix.length]));
}

/**
 * An allow rule's match, which is strict: a pattern with no `*` is the whole
 * command (Claude Code's `Bash(npm test)` does not allow `npm test -- --watch`).
 * Deny and ask rules match more broadly (matchesPattern).
 */
export function allows(pattern: string, text: string): boolean {
  return pattern.includes("*") ? matchesPattern(pattern, text) : pattern === text;
}

export function matchesPattern(pattern: string, text: string): boolean {
  if (pattern === "*" || pattern === "*:*") return true;
  const stars = pattern.split("*").length - 1;
  if (stars === 0) return wordPrefix(pattern, text);
  if (stars === 1 && pattern.endsWith("*")) {
    let prefix = pattern.slice(0, -1);
    if (prefix.endsWith(":") || prefix.endsWith(" ")) prefix = prefix.slice(0, -1);
    return wordPrefix(prefix, text);
  }
  // A glob: a trailing `:*` reads as ` *` (`git -C * diff:*`); `**` is the same as `*`.
  const glob = (pattern.endsWith(":*") ? pattern.slice(0, -2) + " *" : pattern).replace(/\*+/g, "*");
  return globMatch(glob.split("*"), text);
}

/**
 * pieces[0] anchors at the start, the last piece at the end, the middle ones
 * match in order; a middle piece ending in a blank may also match at the very
 * end of the text without its blank.
 */
function globMatch(pieces: string[], text: string): boolean {
  const first = pieces[0]!;
  const last = pieces[pieces.length - 1]!;
  if (!text.startsWith(first)) return false;
  let at = first.length;
  for (let i = 1; i < pieces.length - 1; i++) {
    const piece = pieces[i]!;
    if (piece === "") continue;
    const found = text.indexOf(piece, at);
    if (found >= 0) {
      at = found + piece.length;
      continue;
    }
    const trimmed = piece.replace(/[ \t\n]+$/, "");
    if (trimmed !== piece && i === pieces.length - 2 && last === "" && text.endsWith(trimmed) && text.length - trimmed.length >= at) {
      return true;
    }
    return false;
  }
  return text.length - last.length >= at && text.endsWith(last);
}

/**
 * OpenCode's wildcard match (its `Wildcard.match`): the whole text, case-sensitive,
 * `*` any run of characters (newlines too), `?` one character, a trailing ` *`
 * also matching the text without its blank (`git status *` matches `git status`).
 * Backslashes count as slashes on both sides.
 */
export function opencodeWildcard(pattern: string, text: string): boolean {
  let source = pattern
    .replaceAll("\\", "/")
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replace(/\*/g, ".*")
    .replace(/\?/g, ".");
  if (source.endsWith(" .*")) source = source.slice(0, -3) + "( .*)?";
  return new RegExp("^" + source + "$", "s").test(text.replaceAll("\\", "/"));
}
