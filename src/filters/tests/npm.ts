// `npm test`, `npm run <script>` (and pnpm's and yarn's): what ran is told by
// the output itself, never by the script's name. Lines are held until one
// says which tool printed them: a test runner (vitest, jest, mocha, node
// --test, pytest, cargo, go, bun, deno, playwright), a build (tsc, vite, next,
// webpack) or a linter (eslint, prettier --check); from there that tool's
// filter reads the whole output (npm's `> pkg@version script` banner dropped).
// Output no tool claims is printed as it came, without that banner and npm's
// notices.
import type { Filter, FilterContext, FilterInput, FilterRun } from "../types.js";
import { buildLog } from "../builds/log.js";
import { prettier } from "../builds/prettier.js";
import { eslint } from "../builds/stylish.js";
import { tsc } from "../builds/tsc.js";
import { bunTest } from "./bun.js";
import { cargoTest } from "./cargo.js";
import { denoTest } from "./deno.js";
import { goTest } from "./go.js";
import { jest } from "./jest.js";
import { mocha } from "./mocha.js";
import { nodeTest } from "./node-test.js";
import { playwrightTest } from "./playwright.js";
import { pytest } from "./pytest.js";
import { vitest } from "./vitest.js";

/** A line that only one runner prints, and the runner. */
const SIGNATURES: readonly [RegExp, Filter][] = [
  [/^\s*RUN\s+v\d+\.\d+/, vitest],
  [/^\s*(Test Files|Tests) {2}\d/, vitest],
  [/^(PASS|FAIL) \S+\.(js|jsx|ts|tsx|mjs|cjs)$/, jest],
  [/^(Test Suites|Tests):\s+\d/, jest],
  [/^ {2}\d+ (passing|failing) \(\d/, mocha],
  [/^TAP version \d+$/, nodeTest],
  [/^ℹ (tests|pass|fail) \d+$/, nodeTest],
  [/^=+ test session starts =+$/, pytest],
  [/^running \d+ tests?$/, cargoTest],
  [/^(ok|FAIL)\s+\S+\s+[\d.]+s$|^--- FAIL: /, goTest],
  [/^bun test v\d|^\((pass|fail)\) /, bunTest],
  [/^running \d+ tests? from \.\//, denoTest],
  [/^Running \d+ tests? using \d+ workers?/, playwrightTest],
];

/**
 * A line only a build or a linter prints, the tool, and its filter: that
 * filter reads the output as if the tool had been run by its own name (its
 * dialect is the tool's; npm's arguments are not its own).
 */
const TOOLS: readonly [RegExp, string, Filter][] = [
  [/^\S.*\(\d+,\d+\): (error|warning) TS\d+: |^\S.*:\d+:\d+ - (error|warning) TS\d+: |^Found \d+ errors? in \d+ files?\.$/, "tsc", tsc],
  [/^\s+\d+:\d+\s+(error|warning)\s+\S.*\s{2}\S+$|^✖ \d+ problems? \(\d+ errors?, \d+ warnings?\)$/, "eslint", eslint],
  [/^Checking formatting\.\.\.$/, "prettier", prettier],
  [/^vite v\d+\.\d+\.\d+ building /, "vite", buildLog],
  [/^\s+▲ Next\.js \d/, "next", buildLog],
  [/^webpack \d+\.\d+\.\d+ compiled|^asset \S+ [\d.]+ [KMG]?i?B(ytes)? \[/, "webpack", buildLog],
];

/** The run of the filter that claims a line, or null. */
function claim(text: string, input: FilterInput, ctx: FilterContext): FilterRun | null {
  const test = SIGNATURES.find(([re]) => re.test(text));
  if (test) return test[1].start({ ...input, subIndex: input.argv.length }, ctx);
  const tool = TOOLS.find(([re]) => re.test(text));
  if (tool) return tool[2].start({ argv: [tool[1]], toolIndex: 0, subIndex: 1, route: { ...input.route, tool: tool[1], sub: undefined } }, ctx);
  return null;
}

/** Lines held while no runner is known; past this the output is not a test run's worth filtering. */
const MAX_HELD = 5000;

/** The banner naming the script and its command: npm's and pnpm's `> …` lines, yarn's `yarn run v1…` and `$ …`. */
const BANNER = /^> |^yarn run v\d|^\$ /;

/** Scripts that usually run until stopped (a server, a watcher): their output is the tool's own, live. */
const LONG_RUNNING = /^(dev|start|serve|server|watch|preview)(:|$)|watch/;

export const npmTest: Filter = {
  id: "test.npm",
  inherits(input) {
    const args = input.argv.slice(input.subIndex);
    const script = args[0] === "run" || args[0] === "run-script" ? args[1] : undefined;
    return (script !== undefined && LONG_RUNNING.test(script)) || args.some((a) => a === "--watch" || a === "-w" || a === "watch" || a === "--watchAll");
  },
  start(input: FilterInput, ctx: FilterContext): FilterRun {
    const held: ["out" | "err", string][] = [];
    let runner: FilterRun | null = null;
    let unknown = false;
    let banner = true;
    let dropped = 0;
    return {
      line(stream, text) {
        if (runner) return runner.line(stream, text);
        if (unknown) return;
        // The banner comes first: `> calc@1.0.0 test` then `> vitest run`.
        if (banner && stream === "out" && (BANNER.test(text) || text.trim() === "")) {
          dropped++;
          return;
        }
        banner = false;
        if (/^npm notice\b/.test(text)) {
          dropped++;
          return;
        }
        held.push([stream, text]);
        runner = claim(text, input, ctx);
        if (runner) {
          for (const [s, t] of held) runner.line(s, t);
          held.length = 0;
          return;
        }
        if (held.length > MAX_HELD) {
          unknown = true;
          held.length = 0;
        }
      },
      end(exitCode) {
        if (runner) return runner.end(exitCode);
        if (unknown || !dropped) return null;
        const text = (s: "out" | "err") =>
          held
            .filter(([hs]) => hs === s)
            .map(([, t]) => t + "\n")
            .join("");
        return { stdout: text("out"), stderr: text("err") };
      },
    };
  },
};
