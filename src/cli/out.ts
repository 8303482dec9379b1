// Output of the commands hosts run before every agent command: written
// straight to the file descriptor, so a start does not build a stdio stream
// for a line or two. A reader that has gone (EPIPE) is not an error.
import { writeSync } from "node:fs";

export function writeFd(fd: 1 | 2, text: string): void {
  const buf = Buffer.from(text, "utf8");
  let off = 0;
  while (off < buf.length) {
    try {
      off += writeSync(fd, buf, off);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === "EPIPE") return;
      // A non-blocking descriptor that is full: the stream waits for it.
      if (code === "EAGAIN") return void (fd === 1 ? process.stdout : process.stderr).write(buf.subarray(off));
      throw e;
    }
  }
}
