// JavaScript builds and linters: tsc, eslint, biome on real projects.
import { join } from "node:path";
import { repoRoot } from "../support/corpus.js";
import { buildFacts, diagnosticCounts, matrix, type Case } from "./harness.js";

const LINK = [["ln", "-s", join(repoRoot, "node_modules"), "node_modules"]];
const TSCONFIG = '{ "compilerOptions": { "strict": true, "noEmit": true, "target": "es2022", "module": "nodenext" }, "include": ["src"] }\n';
const GOOD_TS = "export function add(a: number, b: number): number {\n  return a + b;\n}\n";
const BAD_TS = 'export function add(a: number, b: number): number {\n  return a + b;\n}\n\nconst n: number = "two";\nadd(1);\nexport const total = add(n, missing);\n';

const TSC_LINE = /^(\S[^()]*)\(\d+,\d+\): (error|warning) TS\d+: /;
const TSC = { reshaped: [TSC_LINE], counts: diagnosticCounts(/^\S[^()]*\(\d+,\d+\): error TS/, null, (l) => TSC_LINE.exec(l)?.[1] ?? null) };

const tsc: Case[] = [
  { tool: "tsc", kind: "passing", argv: ["tsc", "-p", "."], files: { "tsconfig.json": TSCONFIG, "src/add.ts": GOOD_TS }, exit: 0, facts: buildFacts("tsc", ["tsc"]) },
  {
    tool: "tsc",
    kind: "failing",
    argv: ["tsc", "-p", "."],
    files: { "tsconfig.json": TSCONFIG, "src/add.ts": BAD_TS, "src/more.ts": 'import { add } from "./add.js";\nexport const x: string = add(1, 2);\n' },
    exit: "nonzero",
    facts: buildFacts("tsc", ["tsc"]),
    ...TSC,
  },
  {
    tool: "tsc",
    kind: "crash",
    argv: ["tsc", "-p", "."],
    files: { "tsconfig.json": '{ "compilerOptions": { "target": "es1999" }, "include": ["src"] }\n', "src/add.ts": GOOD_TS },
    exit: "nonzero",
    facts: buildFacts("tsc", ["tsc"]),
  },
];

const ESLINT_CONFIG = 'export default [{ rules: { "no-unused-vars": "error", "no-undef": "error", eqeqeq: "warn" }, languageOptions: { sourceType: "module", globals: { console: "readonly" } } }];\n';
const GOOD_JS = "export function add(a, b) {\n  return a + b;\n}\n";
const BAD_JS = "export function add(a, b) {\n  const unused = 1;\n  if (a == b) console.log(missing);\n  return a + b;\n}\n";

const ESLINT = { reshaped: [/^\s+\d+:\d+\s+(error|warning)\s/, /^\/\S+\.js$/], noise: [/^\s*$/] };

const eslint: Case[] = [
  {
    tool: "eslint",
    kind: "passing",
    argv: ["eslint", "src"],
    files: { "eslint.config.js": ESLINT_CONFIG, "src/add.js": GOOD_JS, "package.json": '{ "type": "module" }\n' },
    setup: LINK,
    exit: 0,
    facts: buildFacts("eslint", ["eslint"]),
  },
  {
    tool: "eslint",
    kind: "failing",
    argv: ["eslint", "src"],
    files: { "eslint.config.js": ESLINT_CONFIG, "src/add.js": BAD_JS, "src/more.js": BAD_JS.replace("add", "more"), "package.json": '{ "type": "module" }\n' },
    setup: LINK,
    exit: "nonzero",
    facts: buildFacts("eslint", ["eslint"]),
    ...ESLINT,
  },
  {
    tool: "eslint",
    kind: "crash",
    argv: ["eslint", "src"],
    files: { "eslint.config.js": "export default [{ rules: { 'no-such-rule-anywhere': 'error' } }];\n", "src/add.js": GOOD_JS, "package.json": '{ "type": "module" }\n' },
    setup: LINK,
    exit: "nonzero",
    facts: buildFacts("eslint", ["eslint"]),
  },
];

const BIOME_NOISE = [/^\s*$/];
/** A diagnostic's heading and message, which the compact form says on one line. */
const BIOME_RESHAPED = [/^\S+:\d+:\d+ [\w/]+(\s+FIXABLE)?\s+━+$/, /^\s+[×!ℹ] /];
const BIOME_COUNTS = diagnosticCounts(/^\S+:\d+:\d+ [\w/]+(\s+FIXABLE)?\s+━+$/, null, (l) => /^(\S+?):\d/.exec(l)?.[1] ?? null);
const biome: Case[] = [
  { tool: "biome", kind: "passing", argv: ["biome", "lint", "src"], files: { "src/add.js": GOOD_JS }, setup: LINK, exit: 0, facts: buildFacts("biome", ["biome", "lint"]), noise: BIOME_NOISE },
  {
    tool: "biome",
    kind: "failing",
    argv: ["biome", "lint", "src"],
    files: { "src/add.js": "export function add(a, b) {\n  if (a == b) { debugger; }\n  var x = 1;\n  return a + b + x;\n}\n" },
    setup: LINK,
    exit: "nonzero",
    facts: buildFacts("biome", ["biome", "lint"]),
    noise: BIOME_NOISE,
    reshaped: BIOME_RESHAPED,
    counts: BIOME_COUNTS,
  },
  {
    tool: "biome",
    kind: "crash",
    argv: ["biome", "lint", "src"],
    files: { "src/add.js": GOOD_JS, "biome.json": "{ not json" },
    setup: LINK,
    exit: "nonzero",
    facts: buildFacts("biome", ["biome", "lint"]),
    noise: BIOME_NOISE,
    reshaped: BIOME_RESHAPED,
    counts: BIOME_COUNTS,
  },
];

matrix("js-builds", [...tsc, ...eslint, ...biome]);
