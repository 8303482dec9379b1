// `rtk discover [paths…]`: what the agents' transcripts say rtk covered, missed
// and could cover next. Reads Claude Code's and Codex's transcripts (or the
// files and folders given), joins them with the recorded hook decisions, and
// prints the report (text, or --json).
import { resolve } from "node:path";
import { within, loadHookDecisions } from "../accounting/decisions.js";
import { Discovery } from "../accounting/discover/analyze.js";
import { defaultRoots, readTranscript, transcriptFiles, type TranscriptFile } from "../accounting/discover/read.js";
import { renderJson, renderText, type ReadSummary } from "../accounting/discover/report.js";
import { loadHookConfig } from "../config/hooks.js";
import { loadConfig } from "../config/load.js";
import { registryFor } from "../routing.js";
import { existsSync } from "node:fs";
import { parseOptions } from "./args.js";
import { usageError } from "./help.js";

export async function discoverCli(args: readonly string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const opts = parseOptions("discover", args, { boolean: ["json", "replay"], string: ["since", "project"] });
  if (typeof opts === "number") return opts;
  let since: number | undefined;
  if (opts["since"] !== undefined) {
    const s = parseSince(String(opts["since"]), Date.now());
    if (s === null) return usageError("discover", `--since needs a date (2026-01-31, 2026-01-31T12:00Z) or an age (7d, 12h), not \`${String(opts["since"])}\``);
    since = s;
  }
  const project = opts["project"] !== undefined ? resolve(String(opts["project"])) : undefined;
  const operands = opts._.map(String);
  let files: TranscriptFile[];
  if (operands.length) {
    const missing = operands.filter((p) => !existsSync(p));
    if (missing.length) {
      process.stderr.write(`rtk discover: no such file or folder: ${missing.join(", ")}\n`);
      return 1;
    }
    files = operands.flatMap((p) => transcriptFiles(resolve(p), null));
  } else {
    files = defaultRoots(env).flatMap((r) => transcriptFiles(r.path, r.source));
  }

  const warnings = new Set<string>();
  const hook = loadHookConfig(env, (m) => warnings.add(m), process.cwd());
  const config = loadConfig(env, process.cwd());
  const decisions = loadHookDecisions({ ...(since !== undefined ? { since } : {}), ...(project !== undefined ? { project } : {}) }, env);
  const discovery = new Discovery(decisions, { registry: registryFor(env), exclusions: hook.exclusions, transparentPrefixes: hook.transparentPrefixes, replay: opts["replay"] === true, config });
  const read: ReadSummary = { files: { claude: 0, codex: 0 }, lines: 0, malformed: 0 };
  const progress = process.stderr.isTTY ? new Progress(files) : null;
  for (const file of files) {
    const r = await readTranscript(
      file,
      (call) => {
        if (since !== undefined && !(call.time >= since)) return;
        if (project !== undefined && !within(call.project || "/", project)) return;
        discovery.add(call);
      },
      progress ? (b) => progress.update(b) : undefined,
    );
    progress?.fileDone(file);
    if (r.source) read.files[r.source]++;
    read.lines += r.lines;
    read.malformed += r.malformed;
  }
  progress?.clear();
  for (const w of warnings) process.stderr.write(w + "\n");
  const report = discovery.report();
  if (opts["json"]) process.stdout.write(renderJson(report, read));
  else {
    if (!files.length)
      process.stdout.write(
        `No transcripts found${
          operands.length
            ? ""
            : ` (looked in ${defaultRoots(env)
                .map((r) => r.path)
                .join(", ")})`
        }.\n`,
      );
    process.stdout.write(renderText(report, read));
  }
  return 0;
}

/** A date or date-time (read as UTC when it names no zone), or an age: 7d, 12h, 30m. */
export function parseSince(s: string, now: number): number | null {
  const age = /^(\d+)([dhm])$/.exec(s);
  if (age) return now - Number(age[1]) * { d: 86_400_000, h: 3_600_000, m: 60_000 }[age[2] as "d" | "h" | "m"];
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s)) return null;
  const t = Date.parse(/[T ]\d{2}:\d{2}/.test(s) && !/(Z|[+-]\d{2}:?\d{2})$/.test(s) ? s.replace(" ", "T") + "Z" : s);
  return Number.isNaN(t) ? null : t;
}

/** A one-line progress indicator on a terminal's stderr: files and megabytes read. */
class Progress {
  private done = 0;
  private doneBytes = 0;
  private last = 0;
  private readonly total: number;

  constructor(private readonly files: readonly TranscriptFile[]) {
    this.total = files.reduce((n, f) => n + f.bytes, 0);
  }

  update(fileBytes: number): void {
    const now = Date.now();
    if (now - this.last < 100) return;
    this.last = now;
    const mb = (b: number) => (b / 1e6).toFixed(1);
    process.stderr.write(`\rrtk discover: ${this.done}/${this.files.length} files, ${mb(this.doneBytes + fileBytes)} of ${mb(this.total)} MB\x1b[K`);
  }

  fileDone(f: TranscriptFile): void {
    this.done++;
    this.doneBytes += f.bytes;
  }

  clear(): void {
    process.stderr.write("\r\x1b[K");
  }
}
