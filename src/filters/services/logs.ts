// `docker logs`, `docker compose logs`, `podman logs`, `kubectl logs`: every
// line as the program wrote it, a run of repeated lines as one line with its
// count — `GET /healthz 200 (×30)`; lines alike but for a leading timestamp
// keep the first one's line and say when the last was —
// `2026-12-03T10:00:00Z GET /healthz 200 (×30, last 2026-12-03T10:14:30Z)`.
// Past the content budget, the first lines and the last ones stay with the
// exact count between, and every error and warning line between stays too
// (while they fit a quarter of the budget), each where it stood. Each stream
// is its own (docker hands the program's stderr on stderr). Followed logs
// (`-f`) run on the terminal as they come.
import { HeadTail, limitsOf } from "../budget.js";
import { omitted, linesText, type Filter, type FilterRun, type RecallRef } from "../types.js";
import { argsAfterSub, hasOption } from "./common.js";

/** A leading timestamp: ISO 8601 (docker `-t`, most loggers), `[2026-12-03 10:00:00]`, klog's `I1203 10:00:00.123456`. */
const STAMP = /^(\[?\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?\]?|[IWEF]\d{4} \d\d:\d\d:\d\d\.\d+)(\s+)/;
const COMPOSE = /^[\w.-]+\s+\| /;
const SEVERE =
  /\b(?:error|err|fatal|panic|exception|failed|failure|critical|crit|warn|warning|traceback|refused|timeout|denied|killed|oom)\b|level=(?:error|warn)|"level":\s*"(?:error|warn|warning|fatal)"|^[EWF]\d{4} /i;

/** Repeated lines into one with their count. */
class Runs {
  private text: string | null = null;
  private firstStamp = "";
  private lastStamp = "";
  private count = 0;
  private key = "";

  constructor(private readonly emit: (line: string) => void) {}

  push(line: string): void {
    // `docker compose logs` puts the service before the program's line: `api-1  | …`.
    const prefix = COMPOSE.exec(line)?.[0] ?? "";
    const m = STAMP.exec(line.slice(prefix.length));
    const stamp = m ? m[1]! : "";
    const key = m ? prefix + line.slice(prefix.length + m[0].length) : line;
    if (this.text !== null && key === this.key && (stamp === "") === (this.firstStamp === "")) {
      this.count++;
      this.lastStamp = stamp;
      return;
    }
    this.flush();
    this.text = line;
    this.key = key;
    this.firstStamp = stamp;
    this.lastStamp = this.firstStamp;
    this.count = 1;
  }

  flush(): void {
    if (this.text === null) return;
    let line = this.text;
    if (this.count > 1) line += this.lastStamp !== this.firstStamp ? ` (×${this.count}, last ${this.lastStamp})` : ` (×${this.count})`;
    this.text = null;
    this.emit(line);
  }
}

/** The head, the tail and the severe lines between, within a character budget; the rest counted. */
class Kept {
  /** A quarter of the budget for the head, half for the tail. */
  private readonly window: HeadTail<string>;
  /** Between head and tail: severe lines kept, each after the count of lines hidden before it. */
  private readonly middle: { before: number; line: string }[] = [];
  private middleChars = 0;
  private hidden = 0;

  constructor(private readonly budget: number) {
    this.window = new HeadTail(
      budget,
      (l) => l.length + 1,
      (l) => this.hide(l),
      budget / 4,
      budget / 2,
    );
  }

  push(line: string): void {
    this.window.push(line);
  }

  private hide(out: string): void {
    if (SEVERE.test(out) && this.middleChars + out.length + 1 <= this.budget / 4) {
      this.middle.push({ before: this.hidden, line: out });
      this.middleChars += out.length + 1;
      this.hidden = 0;
    } else this.hidden++;
  }

  lines(recall: RecallRef): string[] {
    const out = [...this.window.head];
    for (const m of this.middle) {
      if (m.before) out.push(omitted(m.before, m.before === 1 ? "line" : "lines", recall));
      out.push(m.line);
    }
    if (this.hidden) out.push(omitted(this.hidden, this.hidden === 1 ? "line" : "lines", recall));
    return [...out, ...this.window.tail];
  }
}

/** A log stream within `budget`: repeats counted, the head, the severe lines between and the tail kept. */
export function logStream(budget: number): { push(line: string): void; lines(recall: RecallRef): string[] } {
  const kept = new Kept(budget);
  const runs = new Runs((l) => kept.push(l));
  return {
    push: (l) => runs.push(l),
    lines: (recall) => {
      runs.flush();
      return kept.lines(recall);
    },
  };
}

export const logs: Filter = {
  id: "logs",
  inherits: (input) => hasOption(argsAfterSub(input), ["-f", "--follow"]),
  start(_input, ctx): FilterRun {
    const budget = limitsOf(ctx).content;
    const out = logStream(budget);
    const err = logStream(budget);
    return {
      line(s, text) {
        (s === "out" ? out : err).push(text);
      },
      end() {
        return { stdout: linesText(out.lines(ctx.recall)), stderr: linesText(err.lines(ctx.recall)) };
      },
    };
  },
};
