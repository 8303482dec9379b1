// A limit on the work of reading one command. The work is counted, not timed:
// the scanner charges a step for every token it produces (re-scans included)
// and one for every 32 characters it moves over, and past the budget's steps it
// throws; the caller treats the command as unread. The same input is read or
// refused alike on an idle machine and a busy one. A wall-clock deadline, far
// above what the steps cost, stays as the last resort against a pass whose
// cost the steps do not foresee; a timer cannot interrupt a synchronous parse,
// so it is looked at now and then.
import { ShellSyntaxError } from "./errors.js";

/** How often (in tokens) the clock is read: rarely enough to cost nothing measurable. */
const CHECK_EVERY = 256;
/** Characters moved over per step: a long word, an arithmetic expression or a heredoc body is work without tokens. */
const CHARS_PER_STEP_SHIFT = 5;

export class TooComplexError extends ShellSyntaxError {}

export class Budget {
  private ticks = 0;
  /** Steps charged so far. */
  spent = 0;
  /** `deadline`: a value of `now`. */
  constructor(
    readonly steps: number,
    readonly deadline: number,
    readonly ms: number,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** `steps` of reading (none given: the clock alone decides), and `ms` of wall time from now as the last resort. */
  static of(ms: number, steps = Infinity, now: () => number = () => performance.now()): Budget {
    return new Budget(steps, now() + ms, ms, now);
  }

  /** One token at `offset`, `chars` characters past the last; throws TooComplexError once the steps are spent or the deadline has passed. */
  tick(offset: number, chars = 0): void {
    this.spent += 1 + (chars >>> CHARS_PER_STEP_SHIFT);
    if (this.spent > this.steps) throw new TooComplexError(offset, `command too complex: more than ${this.steps} steps to read`);
    if (++this.ticks % CHECK_EVERY === 0 && this.now() > this.deadline) {
      throw new TooComplexError(offset, `command too complex: not read within ${this.ms} ms`);
    }
  }

  /**
   * Whether the budget is spent, for the passes after the parse. The clock is
   * only read for a command of at least one check's tokens: its passes cost
   * microseconds, and a busy machine must not cost it its rewrite.
   */
  expired(): boolean {
    return this.spent > this.steps || (this.ticks >= CHECK_EVERY && this.now() > this.deadline);
  }

  /** Why `expired()` said so. */
  reason(): string {
    return this.spent > this.steps ? `command too complex: more than ${this.steps} steps to read` : `command too complex: not read within ${this.ms} ms`;
  }
}
