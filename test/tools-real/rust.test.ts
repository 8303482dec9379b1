// Rust: cargo test, build, clippy, install and fmt on real crates with no dependencies
// (the registry is not reached: CARGO_NET_OFFLINE).
import { buildFacts, linesMatching, matrix, runnerFacts, type Case, type Fact, type Raw } from "./harness.js";

const MANIFEST = '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n';

const LIB_OK = `pub fn add(a: i32, b: i32) -> i32 {
    a + b
}

#[cfg(test)]
mod tests {
    use super::*;
${Array.from({ length: 30 }, (_, i) => `    #[test]\n    fn adds_${i}() {\n        assert_eq!(add(${i}, 1), ${i + 1});\n    }`).join("\n")}
}
`;

const LIB_FAILING = LIB_OK.replace(
  /\n}\n$/,
  `
    #[test]
    fn breaks() {
        let total = add(2, 2);
        assert_eq!(total, 5, "two and two");
    }
}
`,
);

const MAIN = 'fn main() {\n    println!("{}", calc::add(1, 2));\n}\n';
const INTEGRATION = "#[test]\nfn adds_from_outside() {\n    assert_eq!(calc::add(1, 1), 2);\n}\n";

/** A crate whose library does not compile: its lib and lib-test targets both fail, cargo's jobs in parallel. */
const BROKEN = { "Cargo.toml": MANIFEST, "src/lib.rs": 'pub fn add(a: i32, b: i32) -> i32 {\n    a + b + "x"\n}\n', "src/main.rs": MAIN, "tests/it.rs": INTEGRATION };

const TOUCH = [["touch", "src/lib.rs"]];
const CARGO_NOISE = [
  /^\s+(Compiling|Finished|Running|Doc-tests|Checking|Installing|Locking|Replacing|Blocking)\b/,
  /^running \d+ tests?$/,
  /^\s*$/,
  /^For more information about (this|an) error, try/,
  /^Some errors have detailed explanations: /,
];
/** A panicking thread's id changes from run to run. */
const THREAD = / \(\d+\)(?= panicked at)/;
const CARGO_COUNTED = [/^test \S+ \.\.\. ok$/, /^test result: ok\./];

/** The totals cargo test's summary line adds up: passed over every target, and the count of targets. */
function cargoTotals(raw: Raw): string[] {
  let passed = 0;
  let failed = 0;
  let targets = 0;
  for (const m of raw.stdout.matchAll(/^test result: \w+\. (\d+) passed; (\d+) failed/gm)) {
    passed += Number(m[1]);
    failed += Number(m[2]);
    targets++;
  }
  return [`${passed} passed`, `${failed} failed`, `${targets} targets`, `${targets} target`];
}

const cargoTest: Case[] = [
  {
    tool: "cargo test",
    kind: "passing",
    argv: ["cargo", "test"],
    files: { "Cargo.toml": MANIFEST, "src/lib.rs": LIB_OK, "src/main.rs": MAIN, "tests/it.rs": INTEGRATION },
    before: TOUCH,
    exit: 0,
    facts: runnerFacts("cargo"),
    noise: CARGO_NOISE,
    counted: CARGO_COUNTED,
    counts: cargoTotals,
    unordered: true,
  },
  {
    tool: "cargo test",
    kind: "failing",
    argv: ["cargo", "test"],
    files: { "Cargo.toml": MANIFEST, "src/lib.rs": LIB_FAILING },
    before: TOUCH,
    exit: "nonzero",
    facts: runnerFacts("cargo"),
    noise: [...CARGO_NOISE, /^note: run with `RUST_BACKTRACE=1`/, /^note: Some details are omitted/],
    // The standard library's backtrace frames are counted; a FAILED line restates its block's name.
    counted: [...CARGO_COUNTED, /^\s+\d+: /, /^\s+at \/rustc\//],
    reshaped: [/^test \S+ \.\.\. FAILED$/],
    volatile: [THREAD],
    counts: cargoTotals,
    unordered: true,
  },
  {
    tool: "cargo test",
    kind: "crash",
    argv: ["cargo", "test"],
    files: BROKEN,
    before: TOUCH,
    exit: "nonzero",
    facts: runnerFacts("cargo"),
    noise: CARGO_NOISE,
    unordered: true,
    // Which target's compile ends first changes from run to run.
    volatile: [/^error: could not compile .*\n/m, /^warning: build failed, waiting for other jobs to finish\.\.\.\n/m],
  },
];

const WARNS = "pub fn add(a: i32, b: i32) -> i32 {\n    let unused = 3;\n    a + b\n}\n";
const ERRORS = "pub fn add(a: i32, b: i32) -> i32 {\n    let s: String = 5;\n    a + b + totl\n}\n";

const cargoFacts = buildFacts("cargo", ["cargo", "build"]);
/** A diagnostic's lines the compact form regroups under its file (the facts check each one). */
const DIAGNOSTIC = [/^(error|warning)(\[\w+\])?: /, /^\s*--> /, /^\s*= (help|note): /, /^help: /];

const cargoBuild: Case[] = [
  {
    tool: "cargo build",
    kind: "passing",
    argv: ["cargo", "build"],
    files: { "Cargo.toml": MANIFEST, "src/lib.rs": LIB_OK, "src/main.rs": MAIN },
    before: TOUCH,
    exit: 0,
    facts: cargoFacts,
    noise: CARGO_NOISE,
  },
  {
    tool: "cargo build",
    kind: "warnings",
    argv: ["cargo", "build"],
    files: { "Cargo.toml": MANIFEST, "src/lib.rs": WARNS },
    before: TOUCH,
    exit: 0,
    facts: cargoFacts,
    noise: CARGO_NOISE,
    reshaped: DIAGNOSTIC,
  },
  {
    tool: "cargo build",
    kind: "failing",
    argv: ["cargo", "build"],
    files: { "Cargo.toml": MANIFEST, "src/lib.rs": ERRORS },
    before: TOUCH,
    exit: "nonzero",
    facts: cargoFacts,
    noise: CARGO_NOISE,
    reshaped: DIAGNOSTIC,
  },
];

const cargoClippy: Case[] = [
  {
    tool: "cargo clippy",
    kind: "passing",
    argv: ["cargo", "clippy"],
    needs: ["cargo", "cargo-clippy"],
    files: { "Cargo.toml": MANIFEST, "src/lib.rs": LIB_OK },
    before: TOUCH,
    exit: 0,
    facts: cargoFacts,
    noise: CARGO_NOISE,
  },
  {
    tool: "cargo clippy",
    kind: "failing",
    argv: ["cargo", "clippy", "--", "-D", "warnings"],
    needs: ["cargo", "cargo-clippy"],
    files: { "Cargo.toml": MANIFEST, "src/lib.rs": "pub fn add(a: i32, b: i32) -> i32 {\n    return a + b;\n}\n\npub fn is_empty(v: &Vec<i32>) -> bool {\n    v.len() == 0\n}\n" },
    before: TOUCH,
    exit: "nonzero",
    facts: cargoFacts,
    noise: CARGO_NOISE,
    reshaped: DIAGNOSTIC,
  },
];

/** cargo install's facts: what it installed and where, its warnings and errors. */
function installFacts(raw: Raw): Fact[] {
  return [...linesMatching(/^\s*(Installed|Replaced) package|^warning: be sure to add|^error(\[\w+\])?: /)(raw)];
}

const cargoInstall: Case[] = [
  {
    tool: "cargo install",
    kind: "passing",
    argv: ["cargo", "install", "--path", ".", "--root", "inst"],
    files: { "Cargo.toml": MANIFEST, "src/lib.rs": LIB_OK, "src/main.rs": MAIN },
    before: [["rm", "-rf", "inst"], ...TOUCH],
    exit: 0,
    facts: installFacts,
    noise: CARGO_NOISE,
    volatile: [/\(\/[^)]*\)/],
  },
  {
    tool: "cargo install",
    kind: "crash",
    argv: ["cargo", "install", "--path", ".", "--root", "inst"],
    files: { "Cargo.toml": MANIFEST, "src/lib.rs": ERRORS, "src/main.rs": MAIN },
    before: TOUCH,
    exit: "nonzero",
    facts: installFacts,
    noise: CARGO_NOISE,
    reshaped: DIAGNOSTIC,
  },
];

/** cargo fmt's facts: each diff's heading, each error with its location, each warning. */
const fmtFacts = linesMatching(/^Diff in |^error|^\s*--> |^Error writing files|^Warning: /);
/** A diff's lines, named by a marker in place or counted by one. */
const FMT_DIFF = [/^[-+ ]/];
const LIB_UNFORMATTED = "pub fn add(a:i32,b:i32)->i32{a+b}\n\npub fn sub(a: i32, b: i32) -> i32 {\n    a - b\n}\n\npub   fn mul( a: i32, b: i32 ) -> i32 { a*b }\n";

const cargoFmt: Case[] = [
  {
    tool: "cargo fmt",
    kind: "passing",
    argv: ["cargo", "fmt", "--check"],
    needs: ["cargo", "rustfmt"],
    // Options a stable toolchain does not have: rustfmt warns for every target it formats.
    files: { "Cargo.toml": MANIFEST, "rustfmt.toml": 'imports_granularity = "Crate"\ngroup_imports = "StdExternalCrate"\n', "src/lib.rs": LIB_OK, "src/main.rs": MAIN },
    exit: 0,
    facts: fmtFacts,
  },
  {
    tool: "cargo fmt",
    kind: "failing",
    argv: ["cargo", "fmt", "--all", "--", "--check"],
    needs: ["cargo", "rustfmt"],
    files: { "Cargo.toml": MANIFEST, "src/lib.rs": LIB_UNFORMATTED, "src/main.rs": 'fn main() { println!("{}", calc::add(1,2)); }\n' },
    exit: "nonzero",
    facts: fmtFacts,
    counted: FMT_DIFF,
  },
  {
    tool: "cargo fmt",
    kind: "crash",
    argv: ["cargo", "fmt", "--check"],
    needs: ["cargo", "rustfmt"],
    files: { "Cargo.toml": MANIFEST, "src/lib.rs": "pub mod broken;\n", "src/broken.rs": "pub fn f(x: i32 -> i32 {\n    x\n}\n", "src/main.rs": 'fn main() { println!("{}", 1+2); }\n' },
    exit: "nonzero",
    facts: fmtFacts,
    counted: FMT_DIFF,
  },
];

matrix("rust", [...cargoTest, ...cargoBuild, ...cargoClippy, ...cargoInstall, ...cargoFmt]);
