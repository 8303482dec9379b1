// The SQLite driver of the reports: Node's own `node:sqlite` where it exists
// without a flag (Node ≥ 22.13), else SQLite compiled to WebAssembly with a
// file VFS (node-sqlite3-wasm, bundled; its .wasm file ships beside the
// bundle). Neither is a native module, so a Node upgrade cannot break them.
// Loaded by the reports only: the run and hook paths write the spool.
import { createRequire } from "node:module";
import { join } from "node:path";
import { setFlagsFromString } from "node:v8";

export type Value = number | string | null | bigint | Uint8Array;
export type Row = Record<string, Value>;

export interface Db {
  readonly driver: "node:sqlite" | "wasm";
  exec(sql: string): void;
  run(sql: string, params?: readonly Value[]): void;
  all(sql: string, params?: readonly Value[]): Row[];
  /** A statement run many times (an ingestion's inserts). */
  prepare(sql: string): { run(params: readonly Value[]): void; finalize(): void };
  close(): void;
}

interface NodeSqlite {
  DatabaseSync: new (
    path: string,
    opts?: { readOnly?: boolean; timeout?: number },
  ) => {
    exec(sql: string): void;
    prepare(sql: string): { run(...p: Value[]): unknown; all(...p: Value[]): Row[] };
    close(): void;
  };
}

interface WasmSqlite {
  Database: new (
    path: string,
    opts?: { readOnly?: boolean },
  ) => {
    exec(sql: string): void;
    run(sql: string, p?: Value[]): unknown;
    all(sql: string, p?: Value[]): Row[];
    prepare(sql: string): { run(p?: Value[]): unknown; finalize(): void };
    close(): void;
  };
}

const load = createRequire(typeof __filename === "string" ? __filename : join(process.cwd(), "x.js"));

/** `node:sqlite` without its experimental warning on stderr, or null where Node has none (or only behind a flag). */
function nodeSqlite(): NodeSqlite | null {
  if (process.env["RTK_SQLITE_DRIVER"] === "wasm") return null;
  const emit = process.emitWarning;
  try {
    process.emitWarning = () => {};
    return load("node:sqlite") as NodeSqlite;
  } catch {
    return null;
  } finally {
    process.emitWarning = emit;
  }
}

function wasmSqlite(): WasmSqlite {
  // V8's baseline WebAssembly code only: a report runs for a fraction of a second, and
  // optimising the 1.5 MB SQLite module cost it more CPU than it saved (2.5 times the
  // report's whole time), then held the exit until the compile threads were done.
  // Each flag by itself: set at run time, newer V8s do not apply --liftoff-only's implications.
  for (const flag of ["--liftoff-only", "--no-wasm-tier-up", "--no-wasm-dynamic-tiering"]) setFlagsFromString(flag);
  // A require, not an import: bundled, and evaluated (its WebAssembly compiled) only when this driver is the one used.
  // Where this module runs unbundled as ESM (the tests), there is no `require`: resolve it from here.
  return (typeof require === "function" ? require("node-sqlite3-wasm") : load("node-sqlite3-wasm")) as WasmSqlite;
}

/** Opens (creating unless readOnly) the database at `path`; throws the driver's error. */
export function openDb(path: string, opts: { readOnly?: boolean; timeoutMs?: number } = {}): Db {
  const native = nodeSqlite();
  if (native) {
    const db = new native.DatabaseSync(path, { readOnly: opts.readOnly ?? false, timeout: opts.timeoutMs ?? 0 });
    return {
      driver: "node:sqlite",
      exec: (sql) => db.exec(sql),
      run: (sql, p = []) => void db.prepare(sql).run(...p),
      all: (sql, p = []) => db.prepare(sql).all(...p),
      prepare: (sql) => {
        const st = db.prepare(sql);
        return { run: (p) => void st.run(...p), finalize: () => {} };
      },
      close: () => db.close(),
    };
  }
  const db = new (wasmSqlite().Database)(path, { readOnly: opts.readOnly ?? false });
  return {
    driver: "wasm",
    exec: (sql) => db.exec(sql),
    run: (sql, p = []) => void db.run(sql, [...p]),
    all: (sql, p = []) => db.all(sql, [...p]),
    prepare: (sql) => {
      const st = db.prepare(sql);
      return { run: (p) => void st.run([...p]), finalize: () => st.finalize() };
    },
    close: () => db.close(),
  };
}
