// Python: pytest, unittest, mypy, ruff on real projects.
import { buildFacts, diagnosticCounts, firstOf, linesMatching, matrix, runnerFacts, type Case, type Fact, type Raw } from "./harness.js";

const PYTEST = firstOf("pytest", "pytest-3");
/** The interpreter that has what a case needs (Debian's python3-mypy is /usr/bin/python3's). */
const PYTHON = firstOf("python3", "python");

const calc = (fail: boolean) => `def add(a, b):
    return a + b


${Array.from({ length: 30 }, (_, i) => `def test_adds_${i}():\n    assert add(${i}, 1) == ${i + 1}\n`).join("\n")}
${
  fail
    ? `
def test_breaks():
    total = add(2, 2)
    expected = 5
    assert total == expected
`
    : ""
}`;

const PYTEST_NOISE = [
  /^=+ test session starts =+$/,
  /^(platform |rootdir: |plugins: |cachedir: |configfile: |collected \d+ items?$|\S+: [\d.]+ \(defaults: )/,
  /^\s*$/,
  /^\S+\.py [.FEsxX]+\s+\[\s*\d+%\]$/,
];

const pytest: Case[] = [
  { tool: "pytest", kind: "passing", argv: [PYTEST], files: { "test_calc.py": calc(false) }, exit: 0, facts: runnerFacts("pytest"), noise: PYTEST_NOISE },
  { tool: "pytest", kind: "failing", argv: [PYTEST], files: { "test_calc.py": calc(true) }, exit: "nonzero", facts: runnerFacts("pytest"), noise: PYTEST_NOISE },
  {
    tool: "pytest",
    kind: "crash",
    argv: [PYTEST],
    files: { "test_calc.py": calc(false), "test_broken.py": "import missing_module_of_the_matrix\n\ndef test_x():\n    pass\n" },
    exit: "nonzero",
    facts: runnerFacts("pytest"),
    noise: PYTEST_NOISE,
  },
  { tool: "pytest", kind: "silent", argv: [PYTEST], files: { "calc.py": "def add(a, b):\n    return a + b\n" }, exit: "nonzero", facts: runnerFacts("pytest"), noise: PYTEST_NOISE },
];

const unittestFile = (fail: boolean) => `import unittest


def add(a, b):
    return a + b


class TestAdd(unittest.TestCase):
${Array.from({ length: 30 }, (_, i) => `    def test_adds_${i}(self):\n        self.assertEqual(add(${i}, 1), ${i + 1})\n`).join("\n")}
${fail ? "    def test_breaks(self):\n        total = add(2, 2)\n        self.assertEqual(total, 5)\n" : ""}`;

/** unittest's facts: each failure and error with its test, the traceback's last frame and the exception, the count and the verdict. */
function unittestFacts(raw: Raw): Fact[] {
  const facts: Fact[] = [];
  const lines = (raw.stdout + raw.stderr).split("\n");
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (/^(FAIL|ERROR): /.test(l)) facts.push({ kind: "test", text: l });
    if (/^\s+File ".*", line \d+/.test(l)) facts.push({ kind: "location", text: l });
    if (/^\w+(Error|Exception)\b.*: /.test(l) || /^AssertionError/.test(l)) facts.push({ kind: "message", text: l });
    if (/^Ran \d+ tests? in /.test(l)) facts.push({ kind: "summary", text: l.replace(/ in [\d.]+s$/, "") });
    if (/^(OK|FAILED)\b/.test(l)) facts.push({ kind: "summary", text: l });
  }
  return facts;
}

const UNITTEST_NOISE = [/^[.sxuEF]+$/, /^(={10,}|-{10,})$/, /^\s*$/];

const unittest: Case[] = [
  { tool: "unittest", kind: "passing", argv: [PYTHON, "-m", "unittest"], files: { "test_calc.py": unittestFile(false) }, exit: 0, facts: unittestFacts, noise: UNITTEST_NOISE },
  { tool: "unittest", kind: "failing", argv: [PYTHON, "-m", "unittest"], files: { "test_calc.py": unittestFile(true) }, exit: "nonzero", facts: unittestFacts, noise: UNITTEST_NOISE },
  {
    tool: "unittest",
    kind: "crash",
    argv: [PYTHON, "-m", "unittest"],
    files: { "test_calc.py": unittestFile(false), "test_broken.py": "import missing_module_of_the_matrix\n" },
    exit: "nonzero",
    facts: unittestFacts,
    noise: UNITTEST_NOISE,
  },
];

const TYPED = `def add(a: int, b: int) -> int:
    return a + b


def total(items: list[int]) -> int:
    return sum(items)
`;

const MYPY_LINE = /^(\S+\.py):\d+(?::\d+)?: (error|warning|note): /;
const MYPY = { reshaped: [MYPY_LINE], counts: diagnosticCounts(/^\S+\.py:\d+(?::\d+)?: error: /, null, (l) => MYPY_LINE.exec(l)?.[1] ?? null) };

const mypy: Case[] = [
  { tool: "mypy", kind: "passing", argv: ["mypy", "calc.py"], files: { "calc.py": TYPED }, exit: 0, facts: buildFacts("mypy", ["mypy"]) },
  {
    tool: "mypy",
    kind: "failing",
    argv: ["mypy", "calc.py", "use.py"],
    files: { "calc.py": TYPED, "use.py": 'from calc import add, total\n\nx: int = add(1, "2")\ny: str = total([1, 2])\nz = add(1)\n' },
    exit: "nonzero",
    facts: buildFacts("mypy", ["mypy"]),
    ...MYPY,
  },
  { tool: "mypy", kind: "crash", argv: ["mypy", "broken.py"], files: { "broken.py": "def f(:\n    pass\n" }, exit: "nonzero", facts: buildFacts("mypy", ["mypy"]), ...MYPY },
];

const ruff: Case[] = [
  { tool: "ruff", kind: "passing", argv: ["ruff", "check", "."], files: { "calc.py": TYPED }, exit: 0, facts: linesMatching(/^All checks passed|^Found \d+/) },
  {
    tool: "ruff",
    kind: "failing",
    argv: ["ruff", "check", "--output-format", "concise", "."],
    files: { "calc.py": "import os\nimport sys\n\n\ndef f():\n    x = 1\n    return undefined_name\n" },
    exit: "nonzero",
    facts: buildFacts("ruff", ["ruff", "check"]),
  },
  {
    tool: "ruff",
    kind: "crash",
    argv: ["ruff", "check", "--output-format", "concise", "."],
    files: { "broken.py": "def f(:\n    pass\n" },
    exit: "nonzero",
    facts: buildFacts("ruff", ["ruff", "check"]),
  },
];

matrix("python", [...pytest, ...unittest, ...mypy, ...ruff]);
