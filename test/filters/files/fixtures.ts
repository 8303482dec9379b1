// Fixtures for the listing, search and content filters: real directory trees
// and files built in a temporary folder, the invocations run on them, and the
// facts of each raw output, extracted here independently of the filters (from
// the tools' own formats) and checked against the compact output. Shared with
// the benchmarks.
import { spawnSync, type SpawnSyncReturns } from "node:child_process";
import { chmodSync, mkdirSync, symlinkSync, utimesSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { launchSync } from "../../support/launch.js";
import { COMPACT_EVERY_OUTPUT } from "../../support/sandbox.js";

export const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../../..");
export { RTK } from "../../support/launch.js";

/** 2024-03-15 10:30:00 UTC: every fixture file's modification time. */
export const FIXED_TIME = new Date("2024-03-15T10:30:00Z");

// ---------------------------------------------------------------- environment

/** The explicit environment of every run: temp HOME and data, C locale, UTC. */
export function testEnv(root: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env["PATH"] ?? "/usr/bin:/bin",
    HOME: join(root, "home"),
    XDG_DATA_HOME: join(root, "data"),
    XDG_CONFIG_HOME: join(root, "config"),
    LC_ALL: "C",
    TZ: "UTC",
    NO_COLOR: "1",
    RTK_NO_TRACK: "1",
    ...COMPACT_EVERY_OUTPUT,
    ...extra,
  };
}

export function hasTool(tool: string): boolean {
  return spawnSync("sh", ["-c", `command -v ${tool}`], { encoding: "utf8" }).status === 0;
}

export interface Ran {
  stdout: string;
  stderr: string;
  status: number;
}

function done(r: SpawnSyncReturns<string>): Ran {
  if (r.error) throw r.error;
  return { stdout: r.stdout, stderr: r.stderr, status: r.status ?? 128 };
}

/** The plain tool, as the user would run it. */
export function runPlain(argv: readonly string[], cwd: string, env: Record<string, string>, input?: string): Ran {
  return done(spawnSync(argv[0]!, argv.slice(1), { cwd, env, encoding: "utf8", input: input ?? "", maxBuffer: 256 * 1024 * 1024 }));
}

/** `bin/rtk <argv…>`. */
export function runRtk(argv: readonly string[], cwd: string, env: Record<string, string>, input?: string): Ran {
  return done(launchSync(argv, { cwd, env, input, timeout: 120000 }));
}

// ---------------------------------------------------------------- markers

export interface Marker {
  count: number;
  what: string;
  id: string;
  line: string;
}

const MARKER = /… \+(\d+) more (.+?) \[rtk recall ([0-9a-f]{7}|unavailable)\]/;
/** Content's marker names the hidden lines by their range: `… lines 151–272 (122) omitted [rtk recall <id> --lines 151-272]`. */
export const LINES_MARKER = /^… lines (\d+)–(\d+) \((\d+)\) omitted \[rtk recall ([0-9a-f]{7}|unavailable) --lines (\d+)-(\d+)\]$/;

/** The omission markers of a compact output. */
export function markers(text: string): Marker[] {
  const out: Marker[] = [];
  for (const line of text.split("\n")) {
    const m = MARKER.exec(line);
    if (m) out.push({ count: Number(m[1]), what: m[2]!, id: m[3]!, line });
    const r = LINES_MARKER.exec(line);
    if (r) out.push({ count: Number(r[3]), what: "lines", id: r[4]!, line });
  }
  return out;
}

export function recallIds(text: string): string[] {
  return [...new Set(markers(text).map((m) => m.id))];
}

/** Recall ids change from run to run: golden files hold `ID`. */
export function normalizeIds(text: string): string {
  return text.replace(/\[rtk recall [0-9a-f]{7}( --lines \d+-\d+)?\]/g, "[rtk recall ID$1]");
}

/** bytes/4, the usual estimate of tokens. */
export function tokens(text: string): number {
  return Math.ceil(Buffer.byteLength(text) / 4);
}

export function savings(raw: string, compact: string): number {
  const r = tokens(raw);
  return r === 0 ? 0 : Math.round((1 - tokens(compact) / r) * 1000) / 10;
}

function lines(text: string): string[] {
  const l = text.split("\n");
  if (l[l.length - 1] === "") l.pop();
  return l;
}

// ---------------------------------------------------------------- the project

/** A small deterministic generator, so every fixture is the same on every machine. */
function rng(seed: string): () => number {
  let h = 2166136261;
  for (const c of seed) h = Math.imul(h ^ c.charCodeAt(0), 16777619) >>> 0;
  return () => {
    h = (Math.imul(h, 1664525) + 1013904223) >>> 0;
    return h / 4294967296;
  };
}

const COMPONENTS = [
  "Avatar",
  "Badge",
  "Breadcrumbs",
  "Button",
  "Card",
  "Dropdown",
  "EmptyState",
  "Footer",
  "Header",
  "IconButton",
  "Layout",
  "Menu",
  "Modal",
  "Navbar",
  "Popover",
  "ProgressBar",
  "SearchBar",
  "Sidebar",
  "Skeleton",
  "Spinner",
  "Tabs",
  "Toast",
  "Tooltip",
  "UserMenu",
];
const FORMS = ["Checkbox", "DatePicker", "FormField", "RadioGroup", "Select", "TextArea", "TextInput", "Toggle"];
const TABLES = ["DataTable", "Pagination", "SortHeader", "TableRow"];
const HOOKS = ["useAuth", "useDebounce", "useFetch", "useLocalStorage", "useMediaQuery", "usePagination", "useToast"];
const UTILS = ["arrays", "dates", "format", "numbers", "strings", "validation"];
const LIB = ["api", "auth", "cache", "config", "db", "logger", "session"];
const ROUTES = ["auth", "health", "orders", "products", "users"];

function component(name: string, dir: string): string {
  const r = rng(dir + name);
  const state = r() < 0.6;
  const todo = r() < 0.35;
  const props = ["title", "variant", "size", "disabled", "onClick", "className", "children", "label"].filter(() => r() < 0.5);
  const out = [
    `import React${state ? ", { useState, useEffect }" : ""} from "react";`,
    `import { cn } from "${dir.includes("/") ? "../../" : "../"}lib/utils/strings";`,
    r() < 0.5 ? `import { formatDate } from "${dir.includes("/") ? "../../" : "../"}lib/utils/dates";` : `import { useAuth } from "${dir.includes("/") ? "../../" : "../"}hooks/useAuth";`,
    "",
    `export interface ${name}Props {`,
    ...props.map((p) => `  ${p}?: ${p.startsWith("on") ? "() => void" : p === "children" ? "React.ReactNode" : p === "disabled" ? "boolean" : "string"};`),
    "}",
    "",
    `export function ${name}({ ${props.join(", ")} }: ${name}Props) {`,
  ];
  if (state)
    out.push(
      "  const [open, setOpen] = useState(false);",
      "  const [value, setValue] = useState<string | null>(null);",
      "",
      "  useEffect(() => {",
      "    if (!open) setValue(null);",
      "  }, [open]);",
      "",
    );
  if (todo) out.push("  // TODO: keyboard navigation and focus trap");
  const body = 4 + Math.floor(r() * 20);
  out.push("  return (", `    <div className={cn("${name.toLowerCase()}", className)}>`);
  for (let i = 0; i < body; i++) out.push(`      <span data-part="${name.toLowerCase()}-${i}">{${props[i % Math.max(1, props.length)] ?? "title"}}</span>`);
  out.push("    </div>", "  );", "}", "", `export default ${name};`, "");
  return out.join("\n");
}

function module_(name: string, dir: string): string {
  const r = rng(dir + name);
  const out = [`import { logger } from "${dir === "src/lib" ? "./" : "../"}logger";`, `import type { Config } from "${dir === "src/lib" ? "../" : "../../"}types";`, ""];
  const fns = 2 + Math.floor(r() * 6);
  for (let i = 0; i < fns; i++) {
    const fn = `${name}${["Get", "Parse", "Load", "Check", "Build", "Map", "Read"][i % 7]}${i}`;
    out.push(`export function ${fn}(input: string, config?: Config): string {`);
    if (r() < 0.3) out.push("  // TODO: cache the result per config");
    out.push(
      `  logger.debug("${fn}", { input });`,
      `  const value = input.trim();`,
      `  if (!value) throw new Error("${fn}: empty input");`,
      `  return config?.prefix ? config.prefix + value : value;`,
      "}",
      "",
    );
  }
  return out.join("\n");
}

function testFile(name: string): string {
  return [
    `import { describe, expect, it } from "vitest";`,
    `import { ${name} } from "../../src/components/${name}";`,
    "",
    `describe("${name}", () => {`,
    `  it("renders", () => {`,
    `    expect(${name}).toBeDefined();`,
    "  });",
    "});",
    "",
  ].join("\n");
}

export interface Project {
  root: string;
  /** Every file and directory made, relative to root. */
  paths: string[];
}

/**
 * A medium TypeScript web project (about 110 files in 25 directories), with a
 * symlink, an executable script, an empty directory, a dotfile, a large log
 * and a minified bundle.
 */
export function buildProject(root: string): Project {
  const paths: string[] = [];
  const put = (rel: string, text: string, mode?: number) => {
    const p = join(root, rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    if (mode) chmodSync(p, mode);
    paths.push(rel);
  };
  put(
    "package.json",
    JSON.stringify(
      { name: "shop-web", version: "1.4.0", private: true, scripts: { dev: "next dev", build: "next build", test: "vitest run" }, dependencies: { next: "14.1.0", react: "18.2.0" } },
      null,
      2,
    ) + "\n",
  );
  put("tsconfig.json", JSON.stringify({ compilerOptions: { target: "ES2022", strict: true, jsx: "preserve", paths: { "@/*": ["./src/*"] } } }, null, 2) + "\n");
  put("README.md", "# shop-web\n\nThe storefront.\n\n" + "Run `npm run dev` and open http://localhost:3000.\n".repeat(30));
  put(".gitignore", "node_modules\n.next\ncoverage\n.env\n");
  put(".env.example", "DATABASE_URL=postgres://localhost/shop\nSESSION_SECRET=change-me\n");
  put("next.config.js", "module.exports = { reactStrictMode: true };\n");
  for (const c of COMPONENTS) put(`src/components/${c}.tsx`, component(c, "src/components"));
  for (const c of FORMS) put(`src/components/forms/${c}.tsx`, component(c, "src/components/forms"));
  for (const c of TABLES) put(`src/components/tables/${c}.tsx`, component(c, "src/components/tables"));
  for (const h of HOOKS) put(`src/hooks/${h}.ts`, module_(h, "src/hooks").replace(/^/, `import { useState, useEffect } from "react";\n`));
  for (const u of UTILS) put(`src/lib/utils/${u}.ts`, module_(u, "src/lib/utils"));
  for (const l of LIB) put(`src/lib/${l}.ts`, module_(l, "src/lib"));
  put("src/lib/constants.ts", Array.from({ length: 40 }, (_, i) => `export const LIMIT_${i} = ${i * 25};`).join("\n") + "\n");
  for (const r of ROUTES) put(`src/app/api/${r}/route.ts`, module_(r, "src/app/api").replace(/^/, `import { NextResponse } from "next/server";\n`));
  for (const page of ["dashboard", "settings", "orders", "products"]) {
    put(`src/app/${page}/page.tsx`, component(page[0]!.toUpperCase() + page.slice(1) + "Page", `src/app/${page}`));
    put(`src/app/${page}/loading.tsx`, `export default function Loading() {\n  return <p>Loading…</p>;\n}\n`);
  }
  put("src/app/layout.tsx", component("RootLayout", "src/app"));
  put("src/app/page.tsx", component("HomePage", "src/app"));
  put("src/app/globals.css", "body {\n  margin: 0;\n  font-family: system-ui, sans-serif;\n}\n".repeat(12));
  put("src/types/index.ts", 'export interface Config {\n  prefix?: string;\n}\n\nexport * from "./user";\n');
  put("src/types/user.ts", "export interface User {\n  id: string;\n  email: string;\n  name: string;\n}\n");
  for (const c of COMPONENTS.slice(0, 12)) put(`test/components/${c}.test.tsx`, testFile(c));
  for (const h of HOOKS.slice(0, 4)) put(`test/hooks/${h}.test.ts`, testFile(h).replace("components", "hooks"));
  put("scripts/deploy.sh", "#!/bin/sh\nset -eu\nnpm run build\nrsync -a .next/ deploy@host:/srv/shop/\n", 0o755);
  put("scripts/seed.ts", module_("seed", "scripts"));
  put("docs/architecture.md", "# Architecture\n\n" + "The app is a Next.js project with an API layer under src/app/api.\n".repeat(20));
  put("docs/api.md", "# API\n\n" + ROUTES.map((r) => `## /api/${r}\n\nGET and POST.\n`).join("\n"));
  put("public/favicon.ico", "\0\0\x01\0\x01\0\x10\x10" + "\0".repeat(300));
  put("public/data.bin", "\0\0\x7fELF svg sprite sheet\0\x01\x02\n\0\0");
  put("public/logo.svg", `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 64 64"><circle cx="32" cy="32" r="30"/></svg>\n`);
  const min = Array.from({ length: 400 }, (_, i) => `function f${i}(a,b){return a+b*${i}}`).join(";");
  put("public/vendor.min.js", `${min.slice(0, 6000)};var e=React.createElement("div",null);${min.slice(6000)}\n`);
  const log: string[] = [];
  const r = rng("log");
  for (let i = 0; i < 2000; i++) {
    const s = Math.floor(r() * 60);
    log.push(
      `2024-03-15T10:${String(Math.floor(i / 60) % 60).padStart(2, "0")}:${String(s).padStart(2, "0")}.000Z ${r() < 0.05 ? "WARN" : "INFO"} request id=${(i * 7919) % 100000} path=/api/${ROUTES[i % ROUTES.length]} status=${r() < 0.03 ? 500 : 200} ms=${Math.floor(r() * 300)}`,
    );
  }
  put("logs/app.log", log.join("\n") + "\n");
  mkdirSync(join(root, "coverage"), { recursive: true });
  paths.push("coverage");
  symlinkSync("src/lib/config.ts", join(root, "config.ts"));
  paths.push("config.ts");
  touchAll(root, paths);
  // Hooks changed at different times, so that `ls -t` has an order of its own.
  HOOKS.forEach((h, i) => {
    const t = new Date(FIXED_TIME.getTime() - ((i * 5) % 7) * 3600_000);
    utimesSync(join(root, `src/hooks/${h}.ts`), t, t);
  });
  return { root, paths };
}

/** A folder of `count` files in nested package folders (for the caps). */
export function buildVendor(root: string, count: number): string[] {
  const made: string[] = [];
  for (let i = 0; i < count; i++) {
    const rel = `vendor/pkg-${String(i % 50).padStart(2, "0")}/lib/file-${String(i).padStart(4, "0")}.js`;
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), `module.exports = ${i};\n`);
    made.push(rel);
  }
  return made;
}

function touchAll(root: string, paths: readonly string[]): void {
  const dirs = new Set<string>();
  for (const p of paths) {
    try {
      utimesSync(join(root, p), FIXED_TIME, FIXED_TIME);
    } catch {
      // the symlink's target time is set through the target
    }
    for (let d = dirname(p); d !== "."; d = dirname(d)) dirs.add(d);
  }
  for (const d of dirs) utimesSync(join(root, d), FIXED_TIME, FIXED_TIME);
  utimesSync(root, FIXED_TIME, FIXED_TIME);
}

// ---------------------------------------------------------------- the invocations

export type Kind = "ls" | "ls-plain" | "tree" | "find" | "grep" | "grep-single" | "content" | "wc" | "env";

export interface Fixture {
  name: string;
  argv: string[];
  kind: Kind;
  /** The flags the filter adds (presentation only): the raw it is compared with has them too. */
  presentation?: string[];
  /** Its compact output is compared with a golden file (only fixtures whose output is the same on every machine). */
  golden?: boolean;
  /** A medium, realistic fixture whose savings are held to a floor (and reported). */
  savingsFloor?: number;
  /** Its savings are reported. */
  report?: boolean;
  /** Variables over the test environment. */
  env?: Record<string, string>;
  needs?: string;
}

export const FIXTURES: readonly Fixture[] = [
  { name: "ls-la-root", argv: ["ls", "-la"], kind: "ls", golden: true, savingsFloor: 65 },
  { name: "ls-la-components", argv: ["ls", "-la", "src/components"], kind: "ls", golden: true, savingsFloor: 65 },
  { name: "ls-l-recursive", argv: ["ls", "-lR", "src/lib", "src/app"], kind: "ls", golden: true },
  { name: "ls-lt-dates", argv: ["ls", "-lt", "src/hooks"], kind: "ls", golden: true },
  { name: "ls-l-operands", argv: ["ls", "-l", "package.json", "src/types"], kind: "ls" },
  { name: "ls-error", argv: ["ls", "-la", "missing", "src/types"], kind: "ls", golden: true },
  { name: "ls-plain", argv: ["ls", "src/components"], kind: "ls-plain" },
  { name: "ls-plain-multi", argv: ["ls", "-a", "src", "test"], kind: "ls-plain" },
  { name: "tree-root", argv: ["tree", "-I", "vendor"], kind: "tree", presentation: ["-F"], golden: true, savingsFloor: 20, needs: "tree" },
  { name: "tree-root-utf8", argv: ["tree", "-I", "vendor"], kind: "tree", presentation: ["-F"], env: { LC_ALL: "C.UTF-8" }, golden: true, savingsFloor: 45, needs: "tree" },
  { name: "tree-src-depth", argv: ["tree", "-L", "2", "src", "missing"], kind: "tree", presentation: ["-F"], golden: true, needs: "tree" },
  { name: "tree-vendor-cap", argv: ["tree", "vendor"], kind: "tree", presentation: ["-F"], needs: "tree", report: true },
  { name: "find-all", argv: ["find", ".", "-path", "./vendor", "-prune", "-o", "-print"], kind: "find", golden: true, savingsFloor: 40 },
  { name: "find-src-ts", argv: ["find", "src", "-name", "*.ts*"], kind: "find", golden: true, savingsFloor: 40 },
  { name: "find-dirs", argv: ["find", ".", "-type", "d"], kind: "find", golden: true },
  { name: "find-error", argv: ["find", "missing", "src/types"], kind: "find", golden: true },
  { name: "find-vendor-cap", argv: ["find", "vendor"], kind: "find", report: true },
  { name: "grep-usestate", argv: ["grep", "-rn", "useState", "src"], kind: "grep", golden: true, savingsFloor: 15 },
  { name: "grep-todo-context", argv: ["grep", "-rn", "-C", "2", "TODO", "src"], kind: "grep", golden: true, savingsFloor: 50 },
  { name: "grep-import-caps", argv: ["grep", "-rn", "-e", "import", "-e", "export", "-e", "return", "src", "test"], kind: "grep", report: true },
  { name: "grep-many-in-one-file", argv: ["grep", "-rn", "export const", "src/lib"], kind: "grep", golden: true, report: true },
  { name: "grep-no-n", argv: ["grep", "-r", "-e", "NextResponse", "-e", "export function", "src/app/api"], kind: "grep", golden: true },
  { name: "grep-single-file", argv: ["grep", "-n", "export", "src/lib/api.ts"], kind: "grep-single" },
  { name: "grep-long-line", argv: ["grep", "-n", "createElement", "public/vendor.min.js"], kind: "grep-single", golden: true },
  { name: "grep-no-match", argv: ["grep", "-rn", "zzzzqqq", "src"], kind: "grep" },
  { name: "grep-error", argv: ["grep", "-rn", "Loading", "missing", "src/app"], kind: "grep", golden: true },
  { name: "grep-binary", argv: ["grep", "-rn", "svg", "public"], kind: "grep" },
  { name: "rg-binary", argv: ["rg", "-n", "svg", "public/data.bin", "public/logo.svg", "docs"], kind: "grep", needs: "rg" },
  { name: "grep-files-only", argv: ["grep", "-rl", "useState", "src"], kind: "grep" },
  { name: "rg-usestate", argv: ["rg", "useState", "src"], kind: "grep", golden: true, savingsFloor: 15, needs: "rg" },
  { name: "rg-context", argv: ["rg", "-n", "-C1", "TODO", "src/lib"], kind: "grep", golden: true, needs: "rg" },
  { name: "rg-no-match", argv: ["rg", "zzzzqqq", "src"], kind: "grep", needs: "rg" },
  { name: "cat-small", argv: ["cat", "src/lib/api.ts"], kind: "content" },
  { name: "cat-log", argv: ["cat", "logs/app.log"], kind: "content", golden: true, report: true },
  { name: "head-many", argv: ["head", "-n", "400", "logs/app.log", "README.md", "docs/api.md"], kind: "content", golden: true, report: true },
  { name: "tail-log", argv: ["tail", "-n", "350", "logs/app.log"], kind: "content", report: true },
  { name: "cat-minified", argv: ["cat", "public/vendor.min.js"], kind: "content", report: true },
  { name: "cat-error", argv: ["cat", "missing", "src/types/user.ts"], kind: "content" },
  { name: "wc-files", argv: ["wc", "src/lib/api.ts", "src/lib/db.ts", "logs/app.log", "README.md"], kind: "wc", golden: true, report: true },
  { name: "wc-lines", argv: ["wc", "-l", "src/hooks/useAuth.ts", "src/hooks/useFetch.ts"], kind: "wc" },
  { name: "wc-error", argv: ["wc", "-lc", "missing", "README.md"], kind: "wc" },
];

// ---------------------------------------------------------------- facts

/** A fact of a raw output: what the compact output must hold, and the raw line it came from. */
export interface Fact {
  key: string;
  raw: string;
}

export interface FactCheck {
  /** Facts neither in the compact output nor behind a marker. */
  lost: Fact[];
  /** Facts behind a marker. */
  hidden: Fact[];
  /** Sum of the counts of the markers that account for hidden facts. */
  markedCount: number;
}

// ls -l: the name follows the date (C locale: `Mar 15  2024` or `Mar 15 10:30`).
const LS_LONG = /^([-bcdlps])([-rwxsStT]{9})[.+@]?\s+\d+\s+.*?\s+(\d+|\d+,\s+\d+)\s+[A-Z][a-z]{2} [ \d]\d (?:\d\d:\d\d| \d{4}) (.*)$/;

/** `ls -h` sizes, rounded to the nearest tenth (as the brief asks: 1234 → 1.2K). */
export function lsHuman(n: number): string {
  if (n < 1024) return String(n);
  const units = ["K", "M", "G", "T"];
  let v = n / 1024;
  let u = 0;
  while (v >= 1023.95 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return (v < 9.95 ? (Math.round(v * 10) / 10).toFixed(1) : String(Math.round(v))) + units[u];
}

/** The entries of `ls -l` output: `name/`, `name -> target`, `name*`, with the human size for files. */
export function lsLongFacts(raw: string): Fact[] {
  const facts: Fact[] = [];
  let listing = false;
  for (const line of lines(raw)) {
    if (/^total /.test(line)) {
      listing = true;
      continue;
    }
    if (line === "" || /:$/.test(line)) {
      if (/:$/.test(line)) facts.push({ key: line, raw: line });
      listing = false;
      continue;
    }
    const m = LS_LONG.exec(line);
    if (!m) {
      facts.push({ key: line, raw: line });
      continue;
    }
    const [, type, perms, size, name] = m as unknown as [string, string, string, string, string];
    if (!listing) {
      facts.push({ key: line, raw: line });
      continue;
    }
    if (name === "." || name === "..") continue;
    const mark = type === "d" ? "/" : type === "p" ? "|" : type === "s" ? "=" : type === "-" && /[xst]/.test(perms[2]! + perms[5]! + perms[8]!) ? "*" : "";
    facts.push({ key: type === "-" ? `${name}${mark}  ${lsHuman(Number(size))}` : `${name}${mark}`, raw: line });
  }
  return facts;
}

/** Plain `ls -p`: every line is an entry or a header. */
export function lsPlainFacts(raw: string): Fact[] {
  return lines(raw)
    .filter((l) => l !== "")
    .map((l) => ({ key: l, raw: l }));
}

/** ls facts are whole lines of the compact output, or their start before the extra columns. */
export function checkLs(facts: readonly Fact[], compact: string, recall: (id: string) => string): FactCheck {
  const have = new Set(lines(compact));
  const starts = new Set(lines(compact).flatMap((l) => [l.split("  ")[0]!, l.split("  ").slice(0, 2).join("  ")]));
  return account(
    facts,
    (f) => have.has(f.key) || starts.has(f.key),
    compact,
    recall,
    (m) => m.count,
  );
}

/** tree's art, in either charset: each level is 4 columns. */
const TREE_ENTRY = /^((?:(?:│|\|)[\u00a0 ]{2} |    )*)(?:├── |└── |\|-- |`-- )(.*)$/;

/** Full paths (root/…/name) of every entry, and every other line (roots, summary, errors). */
export function treeFacts(raw: string): Fact[] {
  const facts: Fact[] = [];
  const stack: string[] = [];
  for (const line of lines(raw)) {
    const m = TREE_ENTRY.exec(line);
    if (!m) {
      stack.length = 0;
      stack.push(line);
      facts.push({ key: `line:${line}`, raw: line });
      continue;
    }
    const depth = m[1]!.length / 4 + 1;
    stack.length = depth;
    stack[depth] = m[2]!;
    facts.push({ key: `path:${stack.join("\u0000")}`, raw: line });
  }
  return facts;
}

/** The compact tree read back: 2 spaces per level under a root line. */
export function readCompactTree(compact: string): Set<string> {
  const keys = new Set<string>();
  const stack: string[] = [];
  for (const line of lines(compact)) {
    if (MARKER.test(line)) continue;
    const indent = /^( *)/.exec(line)![1]!.length;
    if (indent === 0 || line.trim() === "") {
      stack.length = 0;
      stack.push(line);
      keys.add(`line:${line}`);
      continue;
    }
    const depth = indent / 2;
    stack.length = depth;
    stack[depth] = line.slice(indent);
    keys.add(`path:${stack.join("\u0000")}`);
  }
  return keys;
}

export function checkTree(facts: readonly Fact[], compact: string, recall: (id: string) => string): FactCheck {
  const keys = readCompactTree(compact);
  return account(
    facts,
    (f) => keys.has(f.key),
    compact,
    recall,
    (m) => m.count,
  );
}

/** find: every path, without its `./`. */
export function findFacts(raw: string): Fact[] {
  return lines(raw).map((l) => ({ key: l.startsWith("./") && l.length > 2 ? l.slice(2) : l, raw: l }));
}

/** The documented grouped form read back into paths. */
export function readCompactFind(compact: string): Set<string> {
  const paths = new Set<string>();
  for (const line of lines(compact)) {
    if (MARKER.test(line)) continue;
    if (line.startsWith("'")) {
      paths.add(line.slice(1, -1).replace(/'\\''/g, "'"));
      continue;
    }
    if (line.startsWith("$'")) {
      paths.add(line.slice(2, -1).replace(/\\(.)/g, (_, c: string) => (c === "n" ? "\n" : c === "r" ? "\r" : c)));
      continue;
    }
    const group = /^(\S*\/) (.+)$/.exec(line);
    if (group) for (const name of group[2]!.split(" ")) paths.add(group[1]! + name);
    else paths.add(line);
  }
  return paths;
}

export function checkFind(facts: readonly Fact[], compact: string, recall: (id: string) => string): FactCheck {
  const paths = readCompactFind(compact);
  return account(
    facts,
    (f) => paths.has(f.key),
    compact,
    recall,
    (m) => (m.what === "paths" ? m.count : 0),
  );
}

/** Whether a grep/rg argv asks for line numbers (`-n`, `-rn`, `--line-number`). */
export function numberedGrep(argv: readonly string[]): boolean {
  return argv.some((a) => a === "--line-number" || /^-[a-zA-Z]*n[a-zA-Z]*$/.test(a));
}

/**
 * grep/rg lines: `file:12:text`, `file-12-text` (names), `12:text` (one file);
 * without line numbers `file:text` and `text`; `--` is not a fact.
 */
export function grepFacts(raw: string, named: boolean, numbered = true): Fact[] {
  const facts: Fact[] = [];
  for (const line of lines(raw)) {
    if (line === "--") continue;
    if (!numbered) {
      const colon = named ? line.indexOf(":") : -1;
      if (named && colon <= 0) facts.push({ key: `other:${line}`, raw: line });
      else facts.push({ key: `${named ? line.slice(0, colon).replace(/^\.\//, "") : ""}\u0000:\u0000${line.slice(colon + 1)}`, raw: line });
      continue;
    }
    const m = named ? /^(.*?)([:-])(\d+)\2(.*)$/.exec(line) : /^()(\d+)([:-])(.*)$/.exec(line);
    if (!m) {
      facts.push({ key: `other:${line}`, raw: line });
      continue;
    }
    const file = (named ? m[1]! : "").replace(/^\.\//, "");
    const n = named ? m[3]! : m[2]!;
    const sep = named ? m[2]! : m[3]!;
    // The text after the line number, byte for byte (indentation, tabs, trailing spaces).
    facts.push({ key: `${file}\u0000${n}${sep}\u0000${m[4]!}`, raw: line });
  }
  return facts;
}

interface GrepLine {
  file: string;
  nsep: string;
  text: string;
}

/** The grouped compact form read back: a file line, then `  12:text` lines (`  text` without numbers). */
export function readCompactGrep(compact: string, named: boolean, numbered = true): { hits: GrepLine[]; others: Set<string> } {
  const hits: GrepLine[] = [];
  const others = new Set<string>();
  let file = "";
  for (const line of lines(compact)) {
    if (MARKER.test(line) && /^ *… \+/.test(line)) continue;
    if (!numbered) {
      if (!named || line.startsWith("  ")) hits.push({ file: named ? file : "", nsep: ":", text: named ? line.slice(2) : line });
      else {
        others.add(line);
        file = line;
      }
      continue;
    }
    const hit = named ? /^ {2}(\d+[:-])(.*)$/s.exec(line) : /^(\d+[:-])(.*)$/s.exec(line);
    if (hit) {
      hits.push({ file: named ? file : "", nsep: hit[1]!, text: hit[2] ?? "" });
      continue;
    }
    others.add(line);
    file = line;
  }
  return { hits, others };
}

/** A cut line shows pieces of the raw text between its markers. */
function sameText(rawText: string, shown: string): boolean {
  if (rawText === shown) return true;
  if (!/chars/.test(shown)) return false;
  const pieces = shown
    .replace(/ … \+\d+ more chars \[rtk recall [0-9a-f]{7}\]$/, "")
    .split(/^… \+\d+ chars … /)
    .filter(Boolean);
  return pieces.every((p) => rawText.includes(p));
}

export function checkGrep(facts: readonly Fact[], compact: string, named: boolean, recall: (id: string) => string, numbered = true): FactCheck {
  const { hits, others } = readCompactGrep(compact, named, numbered);
  const byKey = new Map<string, string[]>();
  for (const h of hits) {
    const k = `${h.file}\u0000${h.nsep}`;
    byKey.set(k, [...(byKey.get(k) ?? []), h.text]);
  }
  const present = (f: Fact) => {
    if (f.key.startsWith("other:")) return others.has(f.key.slice(6));
    const [file, nsep, text] = f.key.split("\u0000") as [string, string, string];
    return (byKey.get(`${file}\u0000${nsep}`) ?? []).some((shown) => sameText(text, shown));
  };
  // `+N more matches (and K context lines) in M more files`: N + K lines.
  return account(facts, present, compact, recall, (m) => (/^(match|matches|lines)\b/.test(m.what) ? m.count + Number(/\(and (\d+) context/.exec(m.what)?.[1] ?? 0) : 0));
}

/**
 * Content: the compact output is the raw lines in order, some runs replaced by
 * `… lines A–B (N) omitted` markers whose range is exactly the lines they stand for.
 */
export function checkContent(raw: string, compact: string, recall: (id: string) => string): FactCheck & { aligned: boolean } {
  const r = lines(raw);
  const c = lines(compact);
  const facts = r.map((l) => ({ key: l, raw: l }));
  const hidden: Fact[] = [];
  const lost: Fact[] = [];
  let markedCount = 0;
  let i = 0;
  let aligned = true;
  for (const line of c) {
    const range = LINES_MARKER.exec(line);
    if (range) {
      const [first, last, n] = [Number(range[1]), Number(range[2]), Number(range[3])];
      if (first !== i + 1 || last !== i + n || range[5] !== range[1] || range[6] !== range[2]) aligned = false;
      markedCount += n;
      for (let k = 0; k < n && i < r.length; k++) hidden.push(facts[i++]!);
      continue;
    }
    const m = MARKER.exec(line);
    if (m && (m[2] === "lines" || m[2] === "line") && line.startsWith("… +")) {
      const n = Number(m[1]);
      // A `==> file <==` header may stand inside the hidden part.
      markedCount += n;
      for (let k = 0; k < n && i < r.length; k++) hidden.push(facts[i++]!);
      continue;
    }
    if (i < r.length && r[i] === line) {
      i++;
      continue;
    }
    if (i < r.length && m && m[2] === "chars" && sameText(r[i]!, line)) {
      i++;
      continue;
    }
    // A header kept between two counts.
    const at = r.indexOf(line, i);
    if (at >= 0 && /^==> .* <==$/.test(line)) {
      lost.push(...facts.slice(i, at));
      i = at + 1;
      continue;
    }
    aligned = false;
  }
  lost.push(...facts.slice(i));
  const ids = recallIds(compact);
  const text = ids.map(recall).join("\n");
  const recalled = new Set(lines(text));
  return { lost: [...lost, ...hidden.filter((f) => !recalled.has(f.raw))], hidden, markedCount, aligned };
}

/** wc: each line's counts and name, whatever the padding. */
export function wcFacts(raw: string): Fact[] {
  return lines(raw).map((l) => ({ key: l.trim().split(/\s+/).join(" "), raw: l }));
}

export function checkWc(facts: readonly Fact[], compact: string, recall: (id: string) => string): FactCheck {
  const have = new Set(lines(compact).map((l) => l.trim().split(/\s+/).join(" ")));
  return account(
    facts,
    (f) => have.has(f.key),
    compact,
    recall,
    (m) => (m.what === "lines" ? m.count : 0),
  );
}

/** env: the name of every variable (`NAME=`), with its value. */
export function envFacts(raw: string): { name: string; value: string }[] {
  return lines(raw)
    .map((l) => /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(l))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ name: m[1]!, value: m[2]! }));
}

/**
 * Splits the facts into lost and hidden: a fact not in the compact output must
 * be in the recall entry of one of its markers, and the markers' counts must
 * add up to the number of hidden facts.
 */
function account(facts: readonly Fact[], present: (f: Fact) => boolean, compact: string, recall: (id: string) => string, counts: (m: Marker) => number): FactCheck {
  const missing = facts.filter((f) => !present(f));
  const ms = markers(compact);
  const text = [...new Set(ms.map((m) => m.id))].map(recall).join("\n");
  const recalled = new Set(lines(text));
  const hidden = missing.filter((f) => recalled.has(f.raw));
  const lost = missing.filter((f) => !recalled.has(f.raw));
  return { lost, hidden, markedCount: ms.reduce((n, m) => n + counts(m), 0) };
}
