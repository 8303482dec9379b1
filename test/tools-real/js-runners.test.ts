// JavaScript test runners on real projects: jest, vitest, mocha, node --test.
import { join } from "node:path";
import { repoRoot } from "../support/corpus.js";
import { matrix, runnerFacts, type Case } from "./harness.js";

/** The project sees the repository's own tools (jest, vitest, mocha are its dev dependencies). */
const LINK = [["ln", "-s", join(repoRoot, "node_modules"), "node_modules"]];

const adds = (n: number, open: string) => Array.from({ length: n }, (_, i) => `  ${open}("adds ${i}", () => { expect(add(${i}, 1)).toBe(${i + 1}); });`).join("\n");

const BREAKS = `  test("breaks on two and two", () => {
    const total = add(2, 2);
    const expected = 5;
    expect(total).toBe(expected);
  });`;

const jestFile = (fail: boolean) => `function add(a, b) {
  return a + b;
}

describe("math", () => {
${adds(30, "test")}
${fail ? BREAKS : ""}
});
`;

/** A stack frame: the filters show the first of the user's own and count the rest. */
const FRAME = /^\s+at /;

const JEST_NOISE = [/^Time:\s/, /^Ran all test suites/, /^\s*$/];
/** Passing suites and the list of tests a run of one file prints (a failing one is told again in its ● block). */
const JEST_COUNTED = [/^PASS /, /^\s+[✓√○✕×] /, /^ {2}math$/];

const jest: Case[] = [
  {
    tool: "jest",
    kind: "passing",
    argv: ["jest"],
    files: { "package.json": "{}\n", "sum.test.js": jestFile(false), "more.test.js": jestFile(false) },
    setup: LINK,
    exit: 0,
    facts: runnerFacts("jest"),
    noise: JEST_NOISE,
    counted: JEST_COUNTED,
    unordered: true,
  },
  {
    tool: "jest",
    kind: "passing one file",
    argv: ["jest", "sum.test.js"],
    files: { "package.json": "{}\n", "sum.test.js": jestFile(false) },
    setup: LINK,
    exit: 0,
    facts: runnerFacts("jest"),
    noise: JEST_NOISE,
    counted: JEST_COUNTED,
  },
  {
    tool: "jest",
    kind: "failing",
    argv: ["jest", "sum.test.js"],
    files: { "package.json": "{}\n", "sum.test.js": jestFile(true) },
    setup: LINK,
    exit: "nonzero",
    facts: runnerFacts("jest"),
    noise: JEST_NOISE,
    counted: JEST_COUNTED,
  },
  {
    tool: "jest",
    kind: "failing two files",
    argv: ["jest"],
    files: { "package.json": "{}\n", "sum.test.js": jestFile(true), "more.test.js": jestFile(false) },
    setup: LINK,
    exit: "nonzero",
    facts: runnerFacts("jest"),
    noise: JEST_NOISE,
    counted: JEST_COUNTED,
    unordered: true,
  },
  {
    tool: "jest",
    kind: "crash",
    argv: ["jest"],
    files: { "package.json": "{}\n", "sum.test.js": "describe('math', () => {\n  test('x', () => {\n    expect(1).toBe(1)\n  ;\n});\n", "more.test.js": jestFile(false) },
    setup: LINK,
    exit: "nonzero",
    facts: runnerFacts("jest"),
    noise: JEST_NOISE,
    counted: [...JEST_COUNTED, FRAME],
    unordered: true,
  },
  {
    tool: "jest",
    kind: "silent",
    argv: ["jest", "--passWithNoTests"],
    files: { "package.json": "{}\n", "src/add.js": "module.exports = (a, b) => a + b;\n" },
    setup: LINK,
    exit: 0,
    facts: runnerFacts("jest"),
    noise: JEST_NOISE,
  },
];

const vitestFile = (fail: boolean) => `import { describe, expect, test } from "vitest";

function add(a, b) {
  return a + b;
}

describe("math", () => {
${adds(30, "test")}
${fail ? BREAKS : ""}
});
`;

const VITEST_PKG = '{ "type": "module" }\n';
const VITEST_NOISE = [/^\s*RUN\s+v\d/, /^\s*(Start at|Duration)\s/, /^\s*$/, /^⎯+(\[\d+\/\d+\])?⎯*$/];
/** Passing files and tests (a failing one, `×`, is told again in its FAIL block). */
const VITEST_COUNTED = [/^\s+[✓×] /, /^\s*✓ \S+ \(\d+ tests?\)/];

const vitest: Case[] = [
  {
    tool: "vitest",
    kind: "passing",
    argv: ["vitest", "run"],
    files: { "package.json": VITEST_PKG, "sum.test.js": vitestFile(false) },
    setup: LINK,
    exit: 0,
    facts: runnerFacts("vitest"),
    noise: VITEST_NOISE,
    counted: VITEST_COUNTED,
  },
  {
    tool: "vitest",
    kind: "failing",
    argv: ["vitest", "run"],
    files: { "package.json": VITEST_PKG, "sum.test.js": vitestFile(true) },
    setup: LINK,
    exit: "nonzero",
    facts: runnerFacts("vitest"),
    noise: VITEST_NOISE,
    counted: VITEST_COUNTED,
  },
  {
    tool: "vitest",
    kind: "crash",
    argv: ["vitest", "run"],
    files: { "package.json": VITEST_PKG, "sum.test.js": 'import { test } from "vitest";\ntest("x", () => {\n  const = 1;\n});\n', "more.test.js": vitestFile(false) },
    setup: LINK,
    exit: "nonzero",
    facts: runnerFacts("vitest"),
    noise: VITEST_NOISE,
    counted: VITEST_COUNTED,
  },
  {
    tool: "vitest",
    kind: "silent",
    argv: ["vitest", "run", "--passWithNoTests"],
    files: { "package.json": VITEST_PKG, "src/add.js": "export const add = (a, b) => a + b;\n" },
    setup: LINK,
    exit: 0,
    facts: runnerFacts("vitest"),
    noise: VITEST_NOISE,
  },
];

const mochaFile = (fail: boolean) => `const assert = require("node:assert");

function add(a, b) {
  return a + b;
}

describe("math", () => {
${Array.from({ length: 30 }, (_, i) => `  it("adds ${i}", () => assert.strictEqual(add(${i}, 1), ${i + 1}));`).join("\n")}
${fail ? '  it("breaks on two and two", () => {\n    assert.strictEqual(add(2, 2), 5);\n  });' : ""}
});
`;

const MOCHA_NOISE = [/^\s*$/];
const MOCHA_COUNTED = [/^\s+[✓✔] /, /^ {2}math$/, /^\s+\d+\) breaks/, FRAME];

const mocha: Case[] = [
  { tool: "mocha", kind: "passing", argv: ["mocha", "test.js"], files: { "test.js": mochaFile(false) }, setup: LINK, exit: 0, facts: runnerFacts("mocha"), noise: MOCHA_NOISE, counted: MOCHA_COUNTED },
  {
    tool: "mocha",
    kind: "failing",
    argv: ["mocha", "test.js"],
    files: { "test.js": mochaFile(true) },
    setup: LINK,
    exit: "nonzero",
    facts: runnerFacts("mocha"),
    noise: MOCHA_NOISE,
    counted: MOCHA_COUNTED,
  },
  {
    tool: "mocha",
    kind: "crash",
    argv: ["mocha", "test.js"],
    files: { "test.js": "describe('x', () => {\n  it('y', () => {\n" },
    setup: LINK,
    exit: "nonzero",
    facts: runnerFacts("mocha"),
    noise: MOCHA_NOISE,
  },
];

const nodeFile = (fail: boolean) => `const test = require("node:test");
const assert = require("node:assert");

function add(a, b) {
  return a + b;
}

${Array.from({ length: 30 }, (_, i) => `test("adds ${i}", () => assert.strictEqual(add(${i}, 1), ${i + 1}));`).join("\n")}
${fail ? 'test("breaks on two and two", () => {\n  assert.strictEqual(add(2, 2), 5);\n});' : ""}
`;

const NODE_NOISE = [/^\s*$/, /^\s+(duration_ms|type|failureType): /, /^\s+\.\.\.$/, /^\s+---$/, /^TAP version/, /^# (duration_ms|suites) /, /^1\.\.\d+$/];
const NODE_COUNTED = [/^ok \d+ - /, /^\s+\S.* \((node:|internal\/)/];
const NODE_VOLATILE = [/duration_ms:? [\d.]+/];

/** A subtest's header: its `ok` or `not ok` line names it again. */
const NODE_RESHAPED = [/^\s*# Subtest: /];

const nodeTest: Case[] = [
  {
    tool: "node --test",
    kind: "passing",
    argv: ["node", "--test", "add.test.js"],
    files: { "add.test.js": nodeFile(false) },
    exit: 0,
    facts: runnerFacts("node"),
    noise: NODE_NOISE,
    counted: NODE_COUNTED,
    volatile: NODE_VOLATILE,
    reshaped: NODE_RESHAPED,
  },
  {
    tool: "node --test",
    kind: "failing",
    argv: ["node", "--test", "add.test.js"],
    files: { "add.test.js": nodeFile(true) },
    exit: "nonzero",
    facts: runnerFacts("node"),
    noise: NODE_NOISE,
    counted: NODE_COUNTED,
    volatile: NODE_VOLATILE,
    reshaped: NODE_RESHAPED,
  },
  {
    tool: "node --test",
    kind: "crash",
    argv: ["node", "--test", "add.test.js"],
    files: { "add.test.js": "const test = require('node:test');\ntest('x', () => {\n" },
    exit: "nonzero",
    facts: runnerFacts("node"),
    noise: NODE_NOISE,
    counted: NODE_COUNTED,
    volatile: NODE_VOLATILE,
    reshaped: NODE_RESHAPED,
  },
];

matrix("js-runners", [...jest, ...vitest, ...mocha, ...nodeTest]);
