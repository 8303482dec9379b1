// Large tool outputs for the filter throughput benchmark, written straight to
// a file in chunks (a 100 MB string would measure the generator's memory, not
// the filter's): an application log, a `git log` with message bodies and merge
// commits, and a `git diff` of many files and hunks. Seeded, so every run
// feeds the filters the same bytes.
import { closeSync, openSync, writeSync } from "node:fs";

function prng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

type Block = (n: number, r: () => number) => string;

/** Writes blocks (each ending in a newline) until the file holds at least `bytes`; returns its size. */
function writeBlocks(path: string, bytes: number, seed: number, block: Block): number {
  const r = prng(seed);
  const fd = openSync(path, "w");
  let written = 0;
  let pending: string[] = [];
  let pendingBytes = 0;
  try {
    for (let n = 0; written + pendingBytes < bytes; n++) {
      const text = block(n, r);
      pending.push(text);
      pendingBytes += Buffer.byteLength(text);
      if (pendingBytes >= 1 << 20) {
        written += writeSync(fd, pending.join(""));
        pending = [];
        pendingBytes = 0;
      }
    }
    if (pending.length) written += writeSync(fd, pending.join(""));
  } finally {
    closeSync(fd);
  }
  return written;
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)]!;
const hex = (r: () => number, n: number) => Array.from({ length: n }, () => "0123456789abcdef"[Math.floor(r() * 16)]).join("");

const ROUTES = ["/api/orders", "/api/products", "/api/users", "/api/cart", "/api/auth/login", "/health", "/api/search"];
const METHODS = ["GET", "GET", "GET", "POST", "PUT", "DELETE"];
const SERVICES = ["http", "db", "cache", "queue", "auth"];

/** A service log: mostly INFO request lines, some WARN, a few ERROR lines with a stack trace head. */
export function writeAppLog(path: string, bytes: number): number {
  return writeBlocks(path, bytes, 41, (n, r) => {
    const t = new Date(Date.UTC(2024, 2, 15, 10, 0, 0) + n * 37).toISOString();
    const level = r() < 0.9 ? "INFO" : r() < 0.8 ? "WARN" : "ERROR";
    const route = pick(r, ROUTES);
    const status = level === "ERROR" ? 500 : level === "WARN" ? pick(r, [404, 429, 409]) : 200;
    const line = `${t} ${level.padEnd(5)} [${pick(r, SERVICES)}] ${pick(r, METHODS)} ${route}/${Math.floor(r() * 9000) + 1000} status=${status} ms=${Math.floor(r() * 400)} req=${hex(r, 12)} user=u-${Math.floor(r() * 5000)}\n`;
    if (level !== "ERROR") return line;
    return `${line}    at handle (${route.slice(5) || "health"}.ts:${Math.floor(r() * 200) + 1}:13)\n    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)\n`;
  });
}

const PEOPLE = ["Ann Lee <ann@example.com>", "Bo Chen <bo@example.com>", "Cy Diaz <cy@example.com>", "Dee Kim <dee@example.com>"];
const VERBS = ["Fix", "Add", "Remove", "Refactor", "Document", "Speed up", "Test", "Rename"];
const THINGS = ["the order export", "cart totals", "the login form", "search ranking", "the retry policy", "session expiry", "the product cache", "rate limits"];
const DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri"];

function commitHeader(n: number, r: () => number): string[] {
  const merge = n % 25 === 24;
  return [
    `commit ${hex(r, 40)}`,
    ...(merge ? [`Merge: ${hex(r, 7)} ${hex(r, 7)}`] : []),
    `Author: ${pick(r, PEOPLE)}`,
    `Date:   ${pick(r, DAYS)} Mar ${(n % 28) + 1} ${String(n % 24).padStart(2, "0")}:${String(n % 60).padStart(2, "0")}:00 2024 +0100`,
    "",
    merge ? `    Merge branch 'feature/${n}'` : `    ${pick(r, VERBS)} ${pick(r, THINGS)}`,
  ];
}

/** `git log`: headers, subjects, and bodies of a few lines, some with `Closes #N`. */
export function writeGitLog(path: string, bytes: number): number {
  return writeBlocks(path, bytes, 42, (n, r) => {
    const body =
      r() < 0.6
        ? [
            "",
            `    The ${pick(r, THINGS)} now keeps its state between requests, so`,
            `    callers no longer have to retry by hand.`,
            ...(r() < 0.3 ? ["", `    Closes #${Math.floor(r() * 900) + 100}`] : []),
          ]
        : [];
    return [...commitHeader(n, r), ...body, ""].join("\n") + "\n";
  });
}

/** `git diff`: one file per block, two or three hunks of context and changed lines. */
export function writeGitDiff(path: string, bytes: number): number {
  return writeBlocks(path, bytes, 43, (n, r) => {
    const file = `src/${pick(r, ["orders", "cart", "auth", "search", "cache"])}/module-${n}.ts`;
    const lines = [`diff --git a/${file} b/${file}`, `index ${hex(r, 7)}..${hex(r, 7)} 100644`, `--- a/${file}`, `+++ b/${file}`];
    let at = 10;
    for (let h = 0, hunks = 2 + Math.floor(r() * 2); h < hunks; h++) {
      const removed = 1 + Math.floor(r() * 4);
      const added = 1 + Math.floor(r() * 5);
      lines.push(`@@ -${at},${removed + 6} +${at},${added + 6} @@ export function handle${h}(input: Options): Options {`);
      for (let i = 0; i < 3; i++) lines.push(`   const value${i} = input.limit ?? ${i * 10};`);
      for (let i = 0; i < removed; i++) lines.push(`-  if (value${i} > ${Math.floor(r() * 100)}) return { ...input, limit: value${i} };`);
      for (let i = 0; i < added; i++) lines.push(`+  if (value${i} >= ${Math.floor(r() * 100)}) return { ...input, limit: value${i} - 1 };`);
      for (let i = 0; i < 3; i++) lines.push(`   // unchanged line ${i} of hunk ${h}`);
      at += 40;
    }
    return lines.join("\n") + "\n";
  });
}
