// No function over 80 lines: a function that long does several things, and its
// pieces want names. Read with the TypeScript compiler over src/ and grammar/;
// every function, method, accessor and arrow function counts, from its body's
// opening line to its closing one. What may stay longer is listed below, each
// with its reason.
import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import ts from "typescript";

const ROOT = join(dirname(fileURLToPath(import.meta.url)), "..");
const MAX_LINES = 80;

/** `file name` → why it may be longer. */
const ALLOWED: ReadonlyMap<string, string> = new Map([
  ["grammar/scanner.ts Scanner.scanLiteral", "the scanner's hot loop: one switch over the mode per character, kept whole so nothing is called per character"],
]);

export interface LongFunction {
  /** `file name`, the name qualified by what encloses it (`Class.method`, `outer.inner`). */
  key: string;
  lines: number;
}

/** The name a function-like node goes by: its own, or the variable, property or call it stands in. */
function nameOf(node: ts.Node, sf: ts.SourceFile): string | null {
  if (ts.isConstructorDeclaration(node)) return "constructor";
  const own = (node as { name?: ts.Node }).name;
  if (own) return own.getText(sf);
  const p = node.parent;
  if ((ts.isVariableDeclaration(p) || ts.isPropertyAssignment(p) || ts.isPropertyDeclaration(p)) && p.name) return p.name.getText(sf);
  if (ts.isCallExpression(p)) return `${p.expression.getText(sf)}(…)`;
  return null;
}

function qualified(node: ts.Node, sf: ts.SourceFile): string {
  const names: string[] = [];
  for (let n: ts.Node | undefined = node; n && n !== sf; n = n.parent) {
    if (ts.isFunctionLike(n) || ts.isClassLike(n)) {
      const name = nameOf(n, sf);
      if (name || n === node) names.unshift(name ?? `(anonymous at line ${sf.getLineAndCharacterOfPosition(n.getStart(sf)).line + 1})`);
    } else if (ts.isObjectLiteralExpression(n) && (ts.isVariableDeclaration(n.parent) || ts.isPropertyAssignment(n.parent))) {
      // A method of a table (`const filter = { start() {…} }`) goes by the table's name too.
      names.unshift(n.parent.name.getText(sf));
    }
  }
  return names.join(".");
}

/** The functions of one source longer than `max` lines. */
export function longFunctions(file: string, text: string, max = MAX_LINES): LongFunction[] {
  const sf = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const out: LongFunction[] = [];
  const visit = (node: ts.Node): void => {
    const body = ts.isFunctionLike(node) ? (node as { body?: ts.Node }).body : undefined;
    if (body) {
      const first = sf.getLineAndCharacterOfPosition(body.getStart(sf)).line;
      const last = sf.getLineAndCharacterOfPosition(body.end).line;
      if (last - first + 1 > max) out.push({ key: `${file} ${qualified(node, sf)}`, lines: last - first + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return out;
}

function sources(dir: string): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const p = join(dir, name);
      if (statSync(p).isDirectory()) return sources(p);
      return name.endsWith(".ts") ? [p] : [];
    });
}

describe("function length", () => {
  const found = ["src", "grammar"].flatMap((dir) => sources(join(ROOT, dir)).flatMap((p) => longFunctions(relative(ROOT, p).split("\\").join("/"), readFileSync(p, "utf8"))));

  test(`no function over ${MAX_LINES} lines but the allowed ones`, () => {
    assert.deepEqual(
      found.filter((f) => !ALLOWED.has(f.key)).map((f) => `${f.key} (${f.lines} lines)`),
      [],
    );
  });

  test("every allowed one is still there (an entry goes once its function is split)", () => {
    const keys = new Set(found.map((f) => f.key));
    assert.deepEqual(
      [...ALLOWED.keys()].filter((k) => !keys.has(k)),
      [],
    );
  });

  test("the check names what it finds", () => {
    const body = Array.from({ length: MAX_LINES }, (_, i) => `  x += ${i};`).join("\n");
    const src = [
      `function short() { return 1; }`,
      `export function outer() {\n  let x = 0;\n${body}\n  return x;\n}`,
      `class K {\n  m() {\n${body}\n  }\n}`,
      `const arrow = () => {\n${body}\n};`,
      `const table = { row: function () {\n${body}\n} };`,
    ].join("\n");
    assert.deepEqual(longFunctions("a.ts", src), [
      { key: "a.ts outer", lines: MAX_LINES + 4 },
      { key: "a.ts K.m", lines: MAX_LINES + 2 },
      { key: "a.ts arrow", lines: MAX_LINES + 2 },
      { key: "a.ts table.row", lines: MAX_LINES + 2 },
    ]);
  });
});
