// `gh api`: the JSON GitHub answered, with only the whitespace between its
// tokens gone — every string, number and key exactly as printed, so the data
// parses to the same value; several documents (`--paginate`) one per line.
// What is not JSON (`--jq`, `--template`, `--include`'s headers, an empty
// answer) passes as printed; stderr (`gh: Not Found (HTTP 404)`) stays whole.
import { ErrorLines } from "../kit.js";
import type { Filter, FilterRun } from "../types.js";

/** Past this much stdout the answer is passed as printed (memory stays bounded). */
const HELD_CHARS = 8 * 1024 * 1024;

/**
 * The JSON documents of a text without the whitespace between tokens (one
 * document a line), or null when the text is not a run of JSON documents.
 */
export function minifyJson(text: string): string | null {
  const docs: string[] = [];
  let out = "";
  let depth = 0;
  let inString = false;
  let started = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (inString) {
      out += c;
      if (c === "\\") out += text[++i] ?? "";
      else if (c === '"') inString = false;
      continue;
    }
    if (c === " " || c === "\t" || c === "\n" || c === "\r") {
      // Between two scalars of the top level (`1 2`) the whitespace is what separates them.
      if (started && depth === 0) {
        docs.push(out);
        out = "";
        started = false;
      }
      continue;
    }
    if (started && depth === 0 && (c === "{" || c === "[" || c === '"')) {
      docs.push(out);
      out = "";
    }
    started = true;
    out += c;
    if (c === '"') inString = true;
    else if (c === "{" || c === "[") depth++;
    else if (c === "}" || c === "]") depth--;
    if (depth < 0) return null;
  }
  if (inString || depth !== 0) return null;
  if (out) docs.push(out);
  if (!docs.length) return null;
  for (const d of docs) {
    try {
      JSON.parse(d);
    } catch {
      return null;
    }
  }
  return docs.join("\n") + "\n";
}

export const ghApi: Filter = {
  id: "gh.api",
  // The answer's bytes as gh printed them: a string's content is the data.
  lineForm: () => "verbatim",
  start(_input, ctx): FilterRun {
    const lines: string[] = [];
    let chars = 0;
    const errors = new ErrorLines();
    return {
      line(stream, text) {
        if (stream === "err") return errors.add(text);
        chars += text.length + 1;
        if (chars <= HELD_CHARS) lines.push(text);
      },
      end() {
        if (chars > HELD_CHARS) return null;
        const json = minifyJson(lines.join("\n"));
        if (json === null) return null;
        return { stdout: json, stderr: errors.text(ctx.recall) };
      },
    };
  },
};
