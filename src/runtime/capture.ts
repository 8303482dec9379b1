// The raw output of a run, kept in the order it arrived, tagged by stream.
// Memory is bounded: past a few MiB the chunks spill to an owner-only file.
import { closeSync, constants, openSync, readSync, unlinkSync, writeSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { tmpdir } from "node:os";
import { join } from "node:path";

export type Stream = 0 | 1;

const MEMORY_LIMIT = 4 * 1024 * 1024;

export class RawCapture {
  private chunks_: { s: Stream; b: Buffer }[] = [];
  private memory = 0;
  private spillFd: number | null = null;
  private spillPath = "";
  readonly bytes: [number, number] = [0, 0];

  /** Bytes not kept because of `limit` (the counts in `bytes` include them). */
  dropped = 0;

  constructor(
    private readonly spillDir: string = tmpdir(),
    private readonly limit = Infinity,
  ) {}

  get total(): number {
    return this.bytes[0] + this.bytes[1];
  }

  /** Keeps a chunk; false when it cannot (past the memory limit, with no room for the spill file). */
  add(s: Stream, b: Buffer): boolean {
    this.bytes[s] += b.length;
    if (this.total > this.limit) {
      this.dropped += b.length;
      return true;
    }
    try {
      if (this.spillFd !== null) {
        this.spill(s, b);
        return true;
      }
      this.chunks_.push({ s, b });
      this.memory += b.length;
      if (this.memory > MEMORY_LIMIT) {
        this.spillPath = join(this.spillDir, `.rtk-spill-${process.pid}-${randomBytes(4).toString("hex")}`);
        this.spillFd = openSync(this.spillPath, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
        for (const c of this.chunks_) this.spill(c.s, c.b);
        this.chunks_ = [];
        this.memory = 0;
      }
      return true;
    } catch {
      return false;
    }
  }

  private spill(s: Stream, b: Buffer): void {
    const head = Buffer.alloc(5);
    head[0] = s;
    head.writeUInt32LE(b.length, 1);
    writeSync(this.spillFd!, head);
    writeSync(this.spillFd!, b);
  }

  /** Every chunk in arrival order, of one stream or both. */
  *chunks(only?: Stream): Generator<[Stream, Buffer]> {
    if (this.spillFd === null) {
      for (const c of this.chunks_) if (only === undefined || c.s === only) yield [c.s, c.b];
      return;
    }
    const head = Buffer.alloc(5);
    let pos = 0;
    for (;;) {
      if (readSync(this.spillFd, head, 0, 5, pos) < 5) return;
      const s = head[0] as Stream;
      const len = head.readUInt32LE(1);
      pos += 5;
      if (only === undefined || s === only) {
        const b = Buffer.alloc(len);
        readSync(this.spillFd, b, 0, len, pos);
        yield [s, b];
      }
      pos += len;
    }
  }

  dispose(): void {
    if (this.spillFd === null) return;
    closeSync(this.spillFd);
    try {
      unlinkSync(this.spillPath);
    } catch {
      // already gone
    }
    this.spillFd = null;
  }
}
