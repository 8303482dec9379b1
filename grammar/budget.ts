// A time limit for reading one command. A timer cannot interrupt a synchronous
// parse, so the scanner counts its tokens and looks at the clock now and then;
// past the deadline it throws, and the caller treats the command as unread.
import { ShellSyntaxError } from "./errors.js";

/** How often (in tokens) the clock is read: rarely enough to cost nothing measurable. */
const CHECK_EVERY = 256;

export class TooComplexError extends ShellSyntaxError {}

export class Budget {
  private ticks = 0;
  /** `deadline`: a performance.now() value. */
  constructor(
    readonly deadline: number,
    readonly ms: number,
  ) {}

  static of(ms: number): Budget {
    return new Budget(performance.now() + ms, ms);
  }

  /** One unit of work at `offset`; throws TooComplexError once the deadline has passed. */
  tick(offset: number): void {
    if (++this.ticks % CHECK_EVERY === 0 && performance.now() > this.deadline) {
      throw new TooComplexError(offset, `command too complex: not read within ${this.ms} ms`);
    }
  }

  /**
   * Whether the deadline has passed, for the passes after the parse. A command of
   * fewer tokens than one check never looks: its passes cost microseconds, and a
   * busy machine must not cost it its rewrite.
   */
  expired(): boolean {
    return this.ticks >= CHECK_EVERY && performance.now() > this.deadline;
  }
}
