import { writeFd } from "./out.js";

/** What a shell reports for a process that wrote to a reader that had gone: 128 + SIGPIPE. */
const BROKEN_PIPE_STATUS = 141;

// How every entry point ends: the command's exit code, a crash reported in one
// line, and a reader that stops early (`rtk … | head`) ending rtk as it ends
// the tool itself: quietly, with the status of a broken pipe.
export function finish(code: number | Promise<number>): void {
  for (const stream of [process.stdout, process.stderr]) {
    stream.on("error", (e: NodeJS.ErrnoException) => {
      if (e.code === "EPIPE") process.exit(BROKEN_PIPE_STATUS);
      throw e;
    });
  }
  settle(code, (text) => process.stderr.write(text));
}

/**
 * The exit code, and a crash in one line. A hot-path command (`rewrite`,
 * `hook`) ends with this alone: it writes with writeFd and never builds the
 * stdio streams.
 */
export function settle(code: number | Promise<number>, writeErr: (text: string) => void = (text) => writeFd(2, text)): void {
  if (typeof code === "number") {
    process.exitCode = code;
    return;
  }
  code.then(
    (c) => {
      process.exitCode = c;
    },
    (err: unknown) => {
      writeErr(`rtk: internal error: ${err instanceof Error ? err.message : String(err)}\n`);
      process.exitCode = 1;
    },
  );
}
