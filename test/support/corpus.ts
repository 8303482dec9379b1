// The shared corpora, read in place (never copied into the project). Tests that
// need them skip with a message when they are absent.
import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const repoRoot = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
export const corpusDir = process.env["RTK_CORPUS_DIR"] ?? resolve(repoRoot, "../shared/corpus");

export interface CorpusInput {
  /** Which file and where in it, for messages. */
  where: string;
  src: string;
}

export function corpusAvailable(): boolean {
  return existsSync(join(corpusDir, "agent-commands.json"));
}

function read(name: string): unknown {
  const p = join(corpusDir, name);
  return existsSync(p) ? JSON.parse(readFileSync(p, "utf8")) : null;
}

/** Every input of every corpus file. */
export function corpusInputs(): CorpusInput[] {
  const out: CorpusInput[] = [];
  const mvdan = read("shell-syntax-mvdan.json") as string[][] | null;
  mvdan?.forEach((group, i) => group.forEach((src, j) => out.push({ where: `mvdan[${i}][${j}]`, src })));
  const ts = read("shell-syntax-tree-sitter.json") as { title: string; input: string }[] | null;
  ts?.forEach((t, i) => out.push({ where: `tree-sitter[${i}] ${t.title}`, src: t.input }));
  return [...out, ...agentCommands().map((src, i) => ({ where: `agent-commands[${i}]`, src }))];
}

export function agentCommands(): string[] {
  return (read("agent-commands.json") as string[] | null) ?? [];
}

/** A short stable id for an input, used by the known-disagreements list. */
export function inputId(src: string): string {
  return createHash("sha256").update(src).digest("hex").slice(0, 16);
}
