// Finding and streaming transcripts: every .jsonl under the given folders, read
// line by line (a transcript can be hundreds of megabytes), each line parsed on
// its own so that a torn or foreign line costs only itself.
import { createReadStream, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Env } from "../../config/paths.js";
import { homeDir } from "../../config/paths.js";
import { ClaudeReader } from "./claude.js";
import { CodexReader } from "./codex.js";
import type { ShellCall, TranscriptSource } from "./records.js";

export interface TranscriptFile {
  path: string;
  bytes: number;
  /** Known from where it was found (the default folders); read from its lines otherwise. */
  source: TranscriptSource | null;
}

/** Where the hosts keep their transcripts: Claude Code's projects folder, Codex's sessions. */
export function defaultRoots(env: Env): { path: string; source: TranscriptSource }[] {
  const claude = env["CLAUDE_CONFIG_DIR"] || join(homeDir(env), ".claude");
  const codex = env["CODEX_HOME"] || join(homeDir(env), ".codex");
  return [
    { path: join(claude, "projects"), source: "claude" },
    { path: join(codex, "sessions"), source: "codex" },
  ];
}

/** The .jsonl files under `path` (or `path` itself), in a stable order; a missing folder has none. */
export function transcriptFiles(path: string, source: TranscriptSource | null): TranscriptFile[] {
  let st;
  try {
    st = statSync(path);
  } catch {
    return [];
  }
  if (st.isFile()) return [{ path, bytes: st.size, source }];
  if (!st.isDirectory()) return [];
  const out: TranscriptFile[] = [];
  let names: string[];
  try {
    names = readdirSync(path).sort();
  } catch {
    return [];
  }
  for (const name of names) {
    const p = join(path, name);
    let s;
    try {
      s = statSync(p);
    } catch {
      continue;
    }
    if (s.isDirectory()) out.push(...transcriptFiles(p, source));
    else if (s.isFile() && name.endsWith(".jsonl")) out.push({ path: p, bytes: s.size, source });
  }
  return out;
}

export interface FileResult {
  source: TranscriptSource | null;
  lines: number;
  /** Lines that are not a JSON object. */
  malformed: number;
}

const CODEX_TYPES = new Set(["session_meta", "response_item", "turn_context", "event_msg", "compacted"]);

/** Streams one transcript, handing each shell call to `emit`; `progress` gets the bytes read so far. */
export async function readTranscript(file: TranscriptFile, emit: (call: ShellCall) => void, progress?: (bytes: number) => void): Promise<FileResult> {
  let source = file.source;
  let reader: ClaudeReader | CodexReader | null = source === null ? null : source === "claude" ? new ClaudeReader(emit) : new CodexReader(emit);
  const result: FileResult = { source, lines: 0, malformed: 0 };
  const stream = createReadStream(file.path);
  let bytes = 0;
  if (progress) stream.on("data", (chunk) => progress((bytes += chunk.length)));
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  for await (const line of lines) {
    if (!line.trim()) continue;
    result.lines++;
    let obj: unknown;
    try {
      obj = JSON.parse(line);
    } catch {
      result.malformed++;
      continue;
    }
    if (typeof obj !== "object" || obj === null || Array.isArray(obj)) {
      result.malformed++;
      continue;
    }
    const rec = obj as Record<string, unknown>;
    if (reader === null) {
      // A file named on the command line: its first object says whose it is.
      source = CODEX_TYPES.has(String(rec["type"])) && "payload" in rec ? "codex" : "claude";
      reader = source === "claude" ? new ClaudeReader(emit) : new CodexReader(emit);
      result.source = source;
    }
    reader.line(rec);
  }
  reader?.end();
  return result;
}
