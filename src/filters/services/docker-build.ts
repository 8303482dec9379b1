// `docker build` / `docker buildx build` / `docker compose build` (BuildKit's
// plain progress, which it prints when not on a terminal), `podman build`,
// and `docker pull` / `docker compose pull`. A build is its steps, one line
// each with how it ended — `[4/6] RUN npm ci --omit=dev: DONE 10.2s`,
// `[2/6] WORKDIR /app: CACHED` — the warning and error lines of a step's
// output, the image it wrote and named, and on failure BuildKit's own error
// report whole (the failing step's output, the Dockerfile excerpt, `ERROR:
// failed to solve`). The internal steps (loading the Dockerfile, the
// context, metadata) and a passing step's other output go, counted. The
// legacy builder's `Step n/m :` lines and verdicts stay, its ` ---> ` lines
// go. A pull is its verdict (`Digest:`, `Status:`, the reference) with the
// count of layers it handled. `-q`, `--progress=rawjson` and the like pass
// through.
import { counted } from "../kit.js";
import { linesText, type CompactOutput, type Filter, type FilterContext, type FilterInput, type FilterRun } from "../types.js";
import { argsAfterSub, hasOption, optionValue } from "./common.js";

const STEP = /^#(\d+) (.*)$/;
const STEP_END = /^(DONE [\d.]+s|CACHED|ERROR: .*|CANCELED.*)$/;
const RUN_OUTPUT = /^[\d.]+ (.*)$/;
const SEVERE = /\b(?:warn(?:ing)?|err(?:or)?|fatal|failed|denied)\b/i;
const LAYER = /^[0-9a-f]{12}: (?:Pulling fs layer|Waiting|Downloading|Verifying Checksum|Download complete|Extracting|Pull complete|Already exists|Retrying.*)/;

interface Step {
  title: string;
  end: string;
  kept: string[];
  dropped: number;
  internal: boolean;
}

export const dockerBuild: Filter = {
  id: "docker.build",
  start: (input, ctx) => new DockerBuildRun(input, ctx),
};

class DockerBuildRun implements FilterRun {
  private readonly pull: boolean;
  private readonly passThrough: boolean;
  private readonly steps = new Map<string, Step>();
  private readonly order: Step[] = [];
  private readonly other: string[] = [];
  private report: string[] | null = null;
  private readonly layers = new Set<string>();
  private chars = 0;
  private readonly streamChars = { out: 0, err: 0 };

  constructor(
    input: FilterInput,
    private readonly ctx: FilterContext,
  ) {
    const args = argsAfterSub(input);
    const words = input.argv.slice(input.subIndex);
    this.pull = words.slice(0, 2).includes("pull");
    const progress = optionValue(args, ["--progress"]);
    this.passThrough = hasOption(args, ["-q", "--quiet", "--print", "--metadata-file"]) || (progress !== null && progress !== "plain" && progress !== "auto");
  }

  line(stream: "out" | "err", text: string): void {
    this.streamChars[stream] += text.length + 1;
    this.chars += text.length + 1;
    if (this.passThrough) return;
    if (this.report) return void this.report.push(text);
    if (this.pull) {
      const l = LAYER.exec(text);
      if (l) return void this.layers.add(text.slice(0, 12));
      if (text.trim() !== "") this.other.push(text);
      return;
    }
    // BuildKit's error report: everything from its first rule on.
    if (text === "------") {
      this.report = [text];
      return;
    }
    const m = STEP.exec(text);
    if (!m) {
      if (/^ ---> |^Removing intermediate container |^\s*$|^Sending build context to Docker daemon/.test(text)) return;
      return void this.other.push(text);
    }
    this.stepLine(m[1]!, m[2]!);
  }

  end(): CompactOutput | null {
    if (this.passThrough) return null;
    const text = linesText(this.pull ? this.pullLines() : this.buildLines());
    if (text.length >= this.chars) return null;
    // On the stream the tool wrote to (BuildKit: stderr; the legacy builder and pull: stdout).
    return this.streamChars.err > this.streamChars.out ? { stdout: "", stderr: text } : { stdout: text, stderr: "" };
  }

  /** A line of BuildKit's step `id`: its title the first time, then its end or a line of its output. */
  private stepLine(id: string, rest: string): void {
    const step = this.steps.get(id);
    if (!step) {
      const added: Step = { title: rest, end: "", kept: [], dropped: 0, internal: /^\[internal\]|^building with |^\[auth\]/.test(rest) || id === "0" };
      this.steps.set(id, added);
      this.order.push(added);
      return;
    }
    if (STEP_END.test(rest)) {
      step.end = rest;
      return;
    }
    const out = RUN_OUTPUT.exec(rest);
    const body = out ? out[1]! : rest;
    if (SEVERE.test(body) || /^(?:writing image|naming to|exporting manifest list|pushing)/.test(rest)) step.kept.push(`  ${body}`);
    else step.dropped++;
  }

  private pullLines(): string[] {
    const out = [...this.other];
    if (this.layers.size) out.splice(/: Pulling from /.test(this.other[0] ?? "") ? 1 : 0, 0, `(${counted(this.layers.size, "layer")} pulled or present)`);
    return out;
  }

  private buildLines(): string[] {
    const out: string[] = [];
    let dropped = 0;
    let internal = 0;
    for (const s of this.order) {
      if (s.internal && !s.end.startsWith("ERROR")) {
        internal++;
        continue;
      }
      out.push(`${s.title}${s.end ? `: ${s.end}` : ""}`);
      // A failed step's output is in BuildKit's report below.
      const failed = s.end.startsWith("ERROR");
      if (!(failed && this.report)) out.push(...s.kept);
      if (!failed) dropped += s.dropped;
    }
    out.push(...this.other);
    if (this.report) out.push(...this.report);
    if (dropped || internal)
      out.push(
        `(${[internal ? counted(internal, "internal step") : "", dropped ? counted(dropped, "output line") : ""].filter(Boolean).join(" and ")} of passing steps left out [rtk recall ${this.ctx.recall.id()}])`,
      );
    return out;
  }
}
