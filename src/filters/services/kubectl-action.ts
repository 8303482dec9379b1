// `kubectl apply|create|delete|replace|patch|label|annotate|scale` and
// `kubectl rollout status|restart|undo`: one line per resource becomes one
// line per outcome — `unchanged (28): deployment.apps/api, service/api, …`,
// `configured (2): …` — in the order the outcomes first came, each resource
// named as kubectl named it (`-n` and server-side apply notes kept as they
// are). A rollout's waiting lines are its last one with the count of those
// before it (`Waiting for … (the last of 12 waiting lines)`), and its verdict. Warnings, errors and
// lines of any other shape stay as they are, where they stood. `-o` output
// passes through, as does `--dry-run` with `-o`.
import { counted } from "../kit.js";
import { linesText, type Filter, type FilterRun } from "../types.js";
import { argsAfterSub, optionValue } from "./common.js";

/** `kind.group/name outcome` (`deployment.apps/api configured`, `pod "x" deleted`, `… configured (server dry run)`). */
const OUTCOME =
  /^(\S+\/\S+|\S+ "[^"]+") ((?:created|configured|unchanged|deleted|replaced|patched|labeled|annotated|scaled|serverside-applied|restarted|rolled back)(?: \((?:dry run|server dry run)\))?)$/;
const WAITING = /^Waiting for (?:deployment|daemon set|statefulset|rollout) .*$/;

export const kubectlAction: Filter = {
  id: "kubectl.action",
  start(input, ctx): FilterRun {
    const passThrough = optionValue(argsAfterSub(input), ["-o", "--output"]) !== null;
    const out: string[] = [];
    const err: string[] = [];
    const groups = new Map<string, { at: number; names: string[] }>();
    let waiting: { line: string; count: number } | null = null;
    let chars = 0;
    const flushWaiting = () => {
      if (waiting) out.push(waiting.count > 1 ? `${waiting.line} (the last of ${waiting.count} waiting lines)` : waiting.line);
      waiting = null;
    };
    return {
      line(stream, text) {
        chars += text.length + 1;
        if (passThrough) return;
        if (stream === "err") return void err.push(text);
        const m = OUTCOME.exec(text);
        if (m) {
          flushWaiting();
          const g = groups.get(m[2]!);
          if (g) g.names.push(m[1]!);
          else {
            groups.set(m[2]!, { at: out.length, names: [m[1]!] });
            out.push("");
          }
          return;
        }
        if (WAITING.test(text)) {
          // Only the newest waiting line says where the rollout stands.
          waiting = { line: text, count: (waiting?.count ?? 0) + 1 };
          return;
        }
        flushWaiting();
        out.push(text);
      },
      end() {
        if (passThrough) return null;
        flushWaiting();
        for (const [outcome, g] of groups) out[g.at] = g.names.length > 1 ? `${outcome} (${counted(g.names.length, "resource")}): ${g.names.join(", ")}` : `${g.names[0]} ${outcome}`;
        const text = linesText(out) + linesText(err);
        if (text.length >= chars) return null;
        return { stdout: linesText(out), stderr: linesText(err) };
      },
    };
  },
};
