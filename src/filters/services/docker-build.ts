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
import { linesText, type Filter, type FilterRun } from "../types.js";
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
  start(input, ctx): FilterRun {
    const args = argsAfterSub(input);
    const words = input.argv.slice(input.subIndex);
    const pull = words.slice(0, 2).includes("pull");
    const progress = optionValue(args, ["--progress"]);
    const passThrough = hasOption(args, ["-q", "--quiet", "--print", "--metadata-file"]) || (progress !== null && progress !== "plain" && progress !== "auto");
    const steps = new Map<string, Step>();
    const order: Step[] = [];
    const other: string[] = [];
    let report: string[] | null = null;
    const layers = new Set<string>();
    let chars = 0;
    const streamChars = { out: 0, err: 0 };

    const line = (text: string) => {
      chars += text.length + 1;
      if (passThrough) return;
      if (report) return void report.push(text);
      if (pull) {
        const l = LAYER.exec(text);
        if (l) return void layers.add(text.slice(0, 12));
        if (text.trim() !== "") other.push(text);
        return;
      }
      // BuildKit's error report: everything from its first rule on.
      if (text === "------") {
        report = [text];
        return;
      }
      const m = STEP.exec(text);
      if (!m) {
        if (/^ ---> |^Removing intermediate container |^\s*$|^Sending build context to Docker daemon/.test(text)) return;
        return void other.push(text);
      }
      const [, id, rest] = m as unknown as [string, string, string];
      let step = steps.get(id);
      if (!step) {
        step = { title: rest, end: "", kept: [], dropped: 0, internal: /^\[internal\]|^building with |^\[auth\]/.test(rest) || id === "0" };
        steps.set(id, step);
        order.push(step);
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
    };

    return {
      line(stream, text) {
        streamChars[stream] += text.length + 1;
        line(text);
      },
      end() {
        if (passThrough) return null;
        const out: string[] = [];
        if (pull) {
          out.push(...other);
          if (layers.size) out.splice(/: Pulling from /.test(other[0] ?? "") ? 1 : 0, 0, `(${counted(layers.size, "layer")} pulled or present)`);
        } else {
          let dropped = 0;
          let internal = 0;
          for (const s of order) {
            if (s.internal && !s.end.startsWith("ERROR")) {
              internal++;
              continue;
            }
            out.push(`${s.title}${s.end ? `: ${s.end}` : ""}`);
            // A failed step's output is in BuildKit's report below.
            const failed = s.end.startsWith("ERROR");
            if (!(failed && report)) out.push(...s.kept);
            if (!failed) dropped += s.dropped;
          }
          out.push(...other);
          if (report) out.push(...(report as string[]));
          if (dropped || internal)
            out.push(
              `(${[internal ? counted(internal, "internal step") : "", dropped ? counted(dropped, "output line") : ""].filter(Boolean).join(" and ")} of passing steps left out [rtk recall ${ctx.recall.id()}])`,
            );
        }
        const text = linesText(out);
        if (text.length >= chars) return null;
        // On the stream the tool wrote to (BuildKit: stderr; the legacy builder and pull: stdout).
        return streamChars.err > streamChars.out ? { stdout: "", stderr: text } : { stdout: text, stderr: "" };
      },
    };
  },
};
