import { writeFd } from "./out.js";

// How every entry point ends: the command's exit code, a crash reported in one
// line, and a reader that stops early (`rtk … | head`) not taken for an error.
export function finish(code: number | Promise<number>): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE") process.exit(process.exitCode ?? 0);
      throw e;
    });
  }
  Promise.resolve(code).then(
    (c) => {
      process.exitCode = c;
    },
    (err: unknown) => {
      process.stderr.write(`rtk: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}

/**
 * The end of a hot-path command (`rewrite`, `hook`), which writes with
 * writeFd: the exit code, and a crash in one line, without building the
 * stdio streams.
 */
export function settle(code: number | Promise<number>): void {
  if (typeof code === "number") {
    process.exitCode = code;
    return;
  }
  code.then(
    (c) => {
      process.exitCode = c;
    },
    (err: unknown) => {
      writeFd(2, `rtk: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
