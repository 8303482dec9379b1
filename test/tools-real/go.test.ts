// Go: go test, vet and build on real modules with no dependencies (GOPROXY=off).
import { buildFacts, diagnosticCounts, matrix, runnerFacts, type Case, type Raw } from "./harness.js";

const MOD = "module example.com/calc\n\ngo 1.19\n";
const CALC = "package calc\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n";
const oks = (n: number) => Array.from({ length: n }, (_, i) => `func TestAdds${i}(t *testing.T) {\n\tif Add(${i}, 1) != ${i + 1} {\n\t\tt.Fatal("wrong")\n\t}\n}\n`).join("\n");
const testFile = (pkg: string, body: string) => `package ${pkg}\n\nimport "testing"\n\n${body}`;
const FAILS = `func TestBreaks(t *testing.T) {
\tif got := Add(2, 2); got != 5 {
\t\tt.Errorf("Add(2, 2) = %d, want 5", got)
\t}
}

func TestStops(t *testing.T) {
\tt.Fatalf("stopped: %v", 42)
}
`;
const TEXT = "package text\n\n// Upper makes s upper case.\nfunc Upper(s string) string { return s }\n";
const TEXT_TEST = testFile("text", 'func TestUpper(t *testing.T) {\n\tif Upper("a") != "a" {\n\t\tt.Fatal("no")\n\t}\n}\n');

/** The module: calc (whose tests the case writes) beside a few packages whose tests pass, as a real module has. */
const project = (calcTest: string) => {
  const files: Record<string, string> = { "go.mod": MOD, "calc.go": CALC, "calc_test.go": testFile("calc", calcTest) };
  for (const pkg of ["text", "parse", "store", "web", "auth", "jobs"]) {
    files[`${pkg}/${pkg}.go`] = TEXT.replace("package text", `package ${pkg}`);
    files[`${pkg}/${pkg}_test.go`] = TEXT_TEST.replace("package text", `package ${pkg}`);
  }
  return files;
};

/** What go test's output supports: failed tests counted by their `--- FAIL` lines, passed ones by `--- PASS` (printed with -v only). */
function goCounts(raw: Raw): string[] {
  const fail = raw.stdout.match(/^\s*--- FAIL: /gm)?.length ?? 0;
  const pass = raw.stdout.match(/^\s*--- PASS: /gm)?.length ?? 0;
  const okPkgs = raw.stdout.match(/^ok\s/gm)?.length ?? 0;
  const failPkgs = raw.stdout.match(/^FAIL\s+\S+\s/gm)?.length ?? 0;
  const none = raw.stdout.match(/^\?\s.*\[no test files\]/gm)?.length ?? 0;
  const counts = [`${fail} failed`, `${okPkgs} ok`, `${failPkgs} failed`, `${okPkgs + failPkgs + none} package`, `${okPkgs + failPkgs + none} packages`, `${none} without test files`];
  if (pass) counts.push(`${pass} passed`);
  return counts;
}

const GO_NOISE = [/^\s*$/, /^(PASS|FAIL)$/];
const GO_COUNTED = [/^ok\s+\S+/, /^\?\s+\S+\s+\[no test files\]/, /^(=== RUN|--- PASS)/];

const goTest: Case[] = [
  { tool: "go test", kind: "passing", argv: ["go", "test", "-count=1", "./..."], files: project(oks(31)), exit: 0, facts: runnerFacts("go"), noise: GO_NOISE, counted: GO_COUNTED, counts: goCounts },
  {
    tool: "go test",
    kind: "failing",
    argv: ["go", "test", "-count=1", "./..."],
    files: project(oks(31) + "\n" + FAILS),
    exit: "nonzero",
    facts: runnerFacts("go"),
    noise: GO_NOISE,
    counted: GO_COUNTED,
    counts: goCounts,
  },
  {
    tool: "go test",
    kind: "failing -v",
    argv: ["go", "test", "-count=1", "-v", "./..."],
    files: project(oks(31) + "\n" + FAILS),
    exit: "nonzero",
    facts: runnerFacts("go"),
    noise: GO_NOISE,
    counted: GO_COUNTED,
    counts: goCounts,
  },
  {
    tool: "go test",
    kind: "crash",
    argv: ["go", "test", "-count=1", "./..."],
    files: { ...project(oks(3)), "calc.go": 'package calc\n\nfunc Add(a, b int) int { return a + b + "x" }\n' },
    exit: "nonzero",
    facts: runnerFacts("go"),
    noise: GO_NOISE,
    counted: GO_COUNTED,
    counts: goCounts,
  },
  {
    tool: "go test",
    kind: "silent",
    argv: ["go", "test", "-count=1", "./..."],
    files: { "go.mod": MOD, "calc.go": CALC },
    exit: 0,
    facts: runnerFacts("go"),
    noise: GO_NOISE,
    counted: GO_COUNTED,
    counts: goCounts,
  },
];

const VET_BAD = 'package calc\n\nimport "fmt"\n\n// Show prints.\nfunc Show(n int) string { return fmt.Sprintf("%s", n) }\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n';

const GO_DIAG = /^(?:vet: )?(\.?\/?\S+\.go):\d+:\d+: /;
const GO_BUILD = { reshaped: [GO_DIAG, /^# \S+$/], counts: diagnosticCounts(GO_DIAG, null, (l) => GO_DIAG.exec(l)?.[1] ?? null) };

const goVet: Case[] = [
  { tool: "go vet", kind: "passing", argv: ["go", "vet", "./..."], files: project(oks(2)), exit: 0, facts: buildFacts("go", ["go", "vet"]) },
  { tool: "go vet", kind: "failing", argv: ["go", "vet", "./..."], files: { "go.mod": MOD, "calc.go": VET_BAD }, exit: "nonzero", facts: buildFacts("go", ["go", "vet"]), ...GO_BUILD },
  {
    tool: "go vet",
    kind: "crash",
    argv: ["go", "vet", "./..."],
    files: { "go.mod": MOD, "calc.go": 'package calc\n\nfunc Add(a, b int) int { return a + b + "x" }\n' },
    exit: "nonzero",
    facts: buildFacts("go", ["go", "vet"]),
    ...GO_BUILD,
  },
];

const goBuild: Case[] = [
  { tool: "go build", kind: "passing", argv: ["go", "build", "./..."], files: project(oks(2)), exit: 0, facts: buildFacts("go", ["go", "build"]) },
  {
    tool: "go build",
    kind: "failing",
    argv: ["go", "build", "./..."],
    files: { "go.mod": MOD, "calc.go": 'package calc\n\nfunc Add(a, b int) int {\n\tx := 1\n\treturn a + b + "x" + totl\n}\n' },
    exit: "nonzero",
    facts: buildFacts("go", ["go", "build"]),
    ...GO_BUILD,
  },
];

matrix("go", [...goTest, ...goVet, ...goBuild]);
