// The omission budget. Compaction that loses nothing (grouping, dropping
// noise, a prefix said once) always applies; items are hidden behind a marker
// only when the compact output would still be longer than the budget, and
// then only as many as it takes to fit. Two budgets: lists (find, grep/rg, ls,
// tree, git status/log/branch…) in tokens, counted as characters / 4 (cheap,
// and the estimate the savings figures use); file content and patches in
// characters, at least the size past which hosts cut a tool result themselves
// (Claude Code: 30,000 characters), so rtk's marked head and tail replace a
// blind cut.
import type { FilterContext, Limits, RecallRef } from "./types.js";

export type { Limits };

export const CHARS_PER_TOKEN = 4;
export const DEFAULT_LIST_TOKENS = 2000;
export const DEFAULT_CONTENT_CHARS = 30_000;

export const DEFAULT_LIMITS: Limits = { list: DEFAULT_LIST_TOKENS * CHARS_PER_TOKEN, content: DEFAULT_CONTENT_CHARS };

export function limitsOf(ctx: Pick<FilterContext, "limits">): Limits {
  return ctx.limits ?? DEFAULT_LIMITS;
}

/** The marker of lines hidden from content: it names the range, which `rtk recall <id> --lines A-B` prints. */
export function omittedLines(first: number, last: number, recall: RecallRef): string {
  const count = last - first + 1;
  return `… lines ${first}–${last} (${count}) omitted [rtk recall ${recall.id()} --lines ${first}-${last}]`;
}

/**
 * The largest per-group count k (at least 1) such that showing min(k, n) items
 * of every group costs at most `budget`, or 0 when even one each does not fit.
 * `cost(k)` must grow with k.
 */
export function largestFit(max: number, budget: number, cost: (k: number) => number): number {
  if (cost(1) > budget) return 0;
  let lo = 1;
  let hi = Math.max(1, max);
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (cost(mid) <= budget) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/**
 * The first and last items of a stream within a budget: everything while the
 * whole fits; past it the head keeps what fits in half the budget (or
 * `headBudget`) and the tail the newest items that fit in the rest (or in
 * `tailBudget`; at least one). Memory holds the head and the tail only.
 * `hide` sees each item as it leaves the tail, in order.
 */
export class HeadTail<T> {
  readonly head: T[] = [];
  private ring: T[] = [];
  private start = 0;
  private headOpen = true;
  private headChars = 0;
  private tailChars = 0;
  hidden = 0;
  total = 0;

  constructor(
    private readonly budget: number,
    private readonly size: (item: T) => number,
    private readonly hide: (item: T) => void = () => {},
    private readonly headBudget = budget / 2,
    private readonly tailBudget: number | null = null,
  ) {}

  push(item: T): void {
    const n = this.size(item);
    this.total++;
    if (this.headOpen && this.headChars + n <= this.headBudget) {
      this.head.push(item);
      this.headChars += n;
      return;
    }
    this.headOpen = false;
    this.ring.push(item);
    this.tailChars += n;
    while (this.ring.length - this.start > 1 && this.tailChars > (this.tailBudget ?? this.budget - this.headChars)) {
      const gone = this.ring[this.start++]!;
      this.tailChars -= this.size(gone);
      this.hidden++;
      this.hide(gone);
    }
    if (this.start > 1024 && this.start > this.ring.length / 2) {
      this.ring = this.ring.slice(this.start);
      this.start = 0;
    }
  }

  get tail(): T[] {
    return this.ring.slice(this.start);
  }
}
