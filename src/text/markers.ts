// The grammar of the markers rtk's compact forms print where they leave
// something out (docs/markers.md), and a parser for it. The same table gives
// the text that tells an agent what the markers mean (hosts/awareness.ts), so
// the explanation and the outputs cannot drift apart: a test parses every
// filter's golden output with this parser.

/** A marker's kind: what it stands for. */
export type MarkerKind = "list" | "lines" | "columns" | "context" | "chars" | "summary";

export interface MarkerForm {
  kind: MarkerKind;
  /** The form as an agent is told it. */
  shape: string;
}

/**
 * The forms, in the order an agent is told them; each says what it stands for
 * (the text has a budget of 80 tokens). `summary` (a tool's own
 * summary line ending in a handle) and `chars` (a long line's start or end
 * cut: `… +N chars … `, `… +N more chars [rtk recall <id>]`) explain themselves and are left out of the agent's text.
 */
export const MARKER_FORMS: readonly MarkerForm[] = [
  { kind: "list", shape: "… +N WHAT" },
  { kind: "lines", shape: "… lines A–B (N) omitted" },
  { kind: "columns", shape: "(WHAT left out)" },
  { kind: "context", shape: "… N lines of WHAT" },
];

// Placeholders are capitals, not `<id>`: Gemini CLI escapes `<` and `>` in what a hook adds to a session.
/** The handle a marker ends with: `[rtk recall ID]`, or `[rtk recall ID --lines A-B]` for a range. */
export const RECALL_COMMAND = "rtk recall ID";
export const RECALL_LINES = "--lines A-B";
/** How the raw output of one command is had: both work with and without a hook. */
export const RAW_FORMS = ["RTK_RAW=1 CMD", "rtk --raw CMD"] as const;

/** What each marker form looks like: each says what it stands for. */
export function markersLine(): string {
  return `Markers: ${MARKER_FORMS.map((f) => f.shape).join(", ")}.`;
}

/** How what a marker hides, and the raw output, are had. */
export function recallLine(): string {
  return `${RECALL_COMMAND} [${RECALL_LINES}] prints what [${RECALL_COMMAND}] hides. Raw output: ${RAW_FORMS.join(" or ")}.`;
}

/**
 * What hook hosts add to a session when it starts: the agent meets rtk's
 * compact forms without having asked for them, so it is told what they are,
 * what their markers mean and how to get the rest. Fixed (no route named), and
 * made of the same lines as the rules block of rules-only hosts.
 */
export function sessionContext(): string {
  return ["Shell output may be a compact form printed by rtk.", markersLine(), recallLine()].join("\n");
}

export interface Handle {
  id: string;
  lines: [number, number] | null;
}

export interface Marker {
  kind: MarkerKind;
  /** The count the marker gives (items, lines, characters), when it gives one. */
  count: number | null;
  handle: Handle | null;
}

export interface LineMarkers {
  markers: Marker[];
  /** What in the line looks like a marker and does not parse. */
  errors: string[];
}

// An id is hex, or `unavailable` where nothing could be kept (recall off, a store rtk cannot use); golden files hold `<id>` in its place.
const ID = String.raw`(?:[0-9a-f]{6,}|unavailable|<id>)`;
const HANDLE_TEXT = String.raw`\[rtk recall (${ID})(?: --lines (\d+)-(\d+))?\]`;
const HANDLE = new RegExp(HANDLE_TEXT, "g");
const N = String.raw`(\d[\d,]*)`;
// The ellipsis and the dash are written as escapes: one character outside ASCII in a
// bundle makes V8 hold its whole source as two bytes a character (in the startup snapshot too).
// Line forms, after the indentation. A list's `what` holds no handle; after the handle a tail may say where (`: a.ts (3), …`) or what (`(no-console 2)`).
const LIST = new RegExp(String.raw`^\u2026 \+${N} ([^\[\]\u2026]*[^\s\[\]\u2026])(?: ${HANDLE_TEXT}(?:(?::| \().*)?)?$`);
const LINES = new RegExp(String.raw`^\u2026 lines ${N}\u2013${N} \(${N}\) omitted ${HANDLE_TEXT}$`);
// Elided context: unchanged lines of a diff, a compiler's source lines, a linter's detail; a handle may follow.
const CONTEXT = new RegExp(String.raw`^\u2026 ${N} (?:unchanged lines?|lines? of [^\[\]\u2026]*[^\s\[\]\u2026])(?: ${HANDLE_TEXT})?$`);
// Within a line.
const CHARS_START = new RegExp(String.raw`\u2026 \+${N} chars \u2026 `, "g");
const CHARS_END = new RegExp(String.raw`\u2026 \+${N} more chars ${HANDLE_TEXT}$`);
const COLUMNS = new RegExp(String.raw`\((?:${N}; )?([^()\[\]]*[^\s()\[\]]) left out ${HANDLE_TEXT}\)`, "g");

const count = (s: string | undefined) => (s === undefined ? null : Number(s.replace(/,/g, "")));
const handleOf = (id: string | undefined, a: string | undefined, b: string | undefined): Handle | null => (id === undefined ? null : { id, lines: a === undefined ? null : [Number(a), Number(b)] });

/**
 * The markers of one output line. Every `[rtk …]` must be a handle that
 * belongs to a marker; a line that starts with `…` must be one of the line
 * forms; a `left out` aside must be the columns form; a handle that belongs to
 * no other form ends the line (a tool's own summary, the detail behind it).
 */
export function parseMarkers(line: string): LineMarkers {
  const markers: Marker[] = [];
  const errors: string[] = [];
  let rest = line;
  // Handles claimed by a form are blanked out of `rest`; what is left must end the line.
  const claim = (start: number, end: number) => (rest = rest.slice(0, start) + " ".repeat(end - start) + rest.slice(end));
  for (const m of line.matchAll(CHARS_START)) {
    markers.push({ kind: "chars", count: count(m[1]), handle: null });
    claim(m.index!, m.index! + m[0].length);
  }
  const end = CHARS_END.exec(line);
  if (end && end.index > 0 && line.slice(0, end.index).trim() !== "") {
    markers.push({ kind: "chars", count: count(end[1]), handle: handleOf(end[2], end[3], end[4]) });
    claim(end.index, line.length);
  }
  for (const m of line.matchAll(COLUMNS)) {
    markers.push({ kind: "columns", count: count(m[1]), handle: handleOf(m[3], m[4], m[5]) });
    claim(m.index!, m.index! + m[0].length);
  }
  const body = rest.trimStart();
  const at = rest.length - body.length;
  if (body.startsWith("…")) {
    const list = LIST.exec(body);
    const lines = LINES.exec(body);
    const context = CONTEXT.exec(body);
    if (list) {
      markers.push({ kind: "list", count: count(list[1]), handle: handleOf(list[3], list[4], list[5]) });
      if (list[3] !== undefined) {
        const h = body.indexOf("[rtk recall ");
        claim(at + h, at + body.indexOf("]", h) + 1);
      }
    } else if (lines) {
      const handle = handleOf(lines[4], lines[5], lines[6]);
      markers.push({ kind: "lines", count: count(lines[3]), handle });
      if (!handle?.lines || handle.lines[0] !== count(lines[1]) || handle.lines[1] !== count(lines[2])) errors.push(`the handle's --lines is not the range the marker names: ${line}`);
      claim(at, rest.length);
    } else if (context) {
      const handle = handleOf(context[2], context[3], context[4]);
      markers.push({ kind: "context", count: count(context[1]), handle });
      if (handle?.lines && handle.lines[1] - handle.lines[0] + 1 !== count(context[1])) errors.push(`the handle's --lines does not hold the lines the marker counts: ${line}`);
      claim(at, rest.length);
    } else errors.push(`a line that starts with \`…\` is no marker form: ${line}`);
  }
  if (/\bleft out\b[^()]*\[rtk /.test(rest)) errors.push(`a \`left out\` aside that is not \`(<what> left out [rtk recall <id>])\`: ${line}`);
  // What is left: handles that end a summary line, and nothing else that starts like one.
  const handles = [...rest.matchAll(HANDLE)];
  for (const h of handles) {
    const after = rest.slice(h.index! + h[0].length);
    if (after.trim() === "" && h === handles[handles.length - 1]) markers.push({ kind: "summary", count: null, handle: handleOf(h[1], h[2], h[3]) });
    else errors.push(`a handle in the middle of a line, outside any marker: ${line}`);
    claim(h.index!, h.index! + h[0].length);
  }
  if (rest.includes("[rtk ")) errors.push(`\`[rtk …]\` that is not \`[rtk recall <id>]\` or \`[rtk recall <id> --lines A-B]\`: ${line}`);
  return { markers, errors };
}

/** The markers of a whole output, line by line (a line's number from 1 with each error). */
export function parseOutputMarkers(text: string): LineMarkers {
  const markers: Marker[] = [];
  const errors: string[] = [];
  text.split("\n").forEach((line, i) => {
    const r = parseMarkers(line);
    markers.push(...r.markers);
    errors.push(...r.errors.map((e) => `line ${i + 1}: ${e}`));
  });
  return { markers, errors };
}
