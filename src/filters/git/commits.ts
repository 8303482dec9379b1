// Commit and tag headers in git's default (medium) format, as `git log` and
// `git show` print them, each made one line: hash, decoration, day, author and
// subject (`a1b2c3d 2024-01-15 Ann: Fix the parser`), a merge with its parents.
// Message bodies are kept whole (`git show`, a one-commit log) or only for the
// lines that carry meaning (BREAKING, Closes/Fixes/Resolves, reverts); what is
// left out is counted. Everything after a message (patches, stats) goes to the
// patch part.
import { omitted, type RecallRef } from "../types.js";
import type { DiffBody } from "./diff-body.js";
import { authorName, compactDate, type Held } from "./shared.js";

export type BodyPolicy = "all" | "meaningful";

/** Message lines kept per commit when the whole body is kept. */
const MAX_BODY = 200;

/** Body lines that say what a commit does to others: breaking changes, the issues it closes, what it reverts. */
const MEANINGFUL = [
  /^BREAKING[ -]CHANGES?\b/i,
  /^BREAKING\b/,
  /\b(?:close[sd]?|fix(?:e[sd])?|resolve[sd]?)\b:?\s+(?:#\d+|[\w.-]+\/[\w.-]+#\d+|[A-Z][A-Z0-9]+-\d+\b|https?:\/\/)/i,
  /^This reverts commit [0-9a-f]{7,}/,
  /^\(cherry picked from commit [0-9a-f]{7,}\)/,
];

export function isMeaningful(line: string): boolean {
  const t = line.trim();
  return MEANINGFUL.some((re) => re.test(t));
}

interface Commit {
  kind: "commit" | "tag";
  /** The hash, or the tag name. */
  id: string;
  decoration: string;
  parents: string;
  author: string;
  date: string;
  subject: string | null;
  extra: string[];
  body: string[];
  hiddenBody: number;
}

const COMMIT = /^commit ([0-9a-f]{7,64})(?:[ \t](.+))?$/;

/** `messageGap`: an empty line after message lines; an indented line next continues the message. */
type State = "patch" | "header" | "message" | "messageGap" | "tagHeader" | "tagMessage";

export class CommitStream {
  private state: State = "patch";
  private current: Commit | null = null;
  commits = 0;
  hiddenBody = 0;

  constructor(
    private readonly held: Held,
    private readonly patch: DiffBody,
    private readonly recall: RecallRef,
    private readonly policy: BodyPolicy,
  ) {}

  line(text: string): void {
    // A commit line can be nothing else: message lines are indented, patch lines start with a sign or a space.
    const c = COMMIT.exec(text);
    if (c) {
      this.finishCommit();
      this.patch.finishSection();
      this.current = newCommit("commit", c[1]!, c[2] ?? "");
      this.commits++;
      this.state = "header";
      return;
    }
    const tag = this.state === "patch" ? /^tag (\S+)$/.exec(text) : null;
    if (tag) {
      this.finishCommit();
      this.patch.finishSection();
      this.current = newCommit("tag", tag[1]!, "");
      this.state = "tagHeader";
      return;
    }
    switch (this.state) {
      case "header":
      case "tagHeader":
        return this.headerLine(text);
      case "message":
      case "messageGap":
        if (text.startsWith("    ")) {
          this.state = "message";
          return this.messageLine(text.slice(4));
        }
        // git indents a message's blank lines too, but logs made by other tools may not.
        if (text === "" && this.state === "message") {
          this.state = "messageGap";
          return;
        }
        this.finishCommit();
        this.state = "patch";
        if (text === "") return;
        return this.patch.line(text);
      case "tagMessage":
        return this.messageLine(text);
      case "patch":
        return this.patch.line(text);
    }
  }

  private headerLine(text: string): void {
    const c = this.current!;
    let m: RegExpExecArray | null;
    if (text === "") this.state = c.kind === "tag" ? "tagMessage" : "message";
    else if ((m = /^Merge: (.+)$/.exec(text)) && c.kind === "commit") {
      c.parents = m[1]!;
      for (const p of c.parents.split(" ")) this.held.seeAbbrev(p.length);
    } else if ((m = /^(?:Author|Tagger): (.*)$/.exec(text))) c.author = m[1]!;
    else if ((m = /^Date: +(.*)$/.exec(text))) c.date = m[1]!;
    else c.extra.push(text);
  }

  private messageLine(text: string): void {
    const c = this.current!;
    if (text.trim() === "") return;
    if (c.subject === null) {
      c.subject = text;
      return;
    }
    if (this.policy === "meaningful" && !isMeaningful(text)) {
      c.hiddenBody++;
      return;
    }
    if (c.body.length >= MAX_BODY) c.hiddenBody++;
    else c.body.push(text);
  }

  private finishCommit(): void {
    const c = this.current;
    if (!c) return;
    this.current = null;
    const who = [c.decoration, c.date ? compactDate(c.date) : "", c.author ? authorName(c.author) : ""].filter(Boolean).join(" ");
    const rest = `${who ? " " + who : ""}${c.subject !== null ? ": " + c.subject : ""}${c.parents ? ` [merge ${c.parents}]` : ""}`;
    if (c.kind === "commit") this.held.pushCommit(c.id, rest);
    else this.held.push(`tag ${c.id}${rest}`);
    for (const x of c.extra) this.held.push(x);
    for (const b of c.body) this.held.push("  " + b);
    if (c.hiddenBody && this.policy === "all") this.held.push(omitted(c.hiddenBody, "message lines", this.recall));
    else this.hiddenBody += c.hiddenBody;
  }

  /** The output ended: the last commit and its patch. */
  end(): void {
    this.finishCommit();
    this.patch.finishSection();
  }

  /** A commit is open whose subject has not come yet: its header lines are still wanted. */
  get headerPending(): boolean {
    return this.current !== null && this.current.subject === null && (this.state === "header" || this.state === "message" || this.state === "messageGap");
  }

  /** The output stops being held (the memory cap): what is pending is written as it stands. */
  abort(): void {
    this.finishCommit();
    this.patch.abort();
  }
}

function newCommit(kind: Commit["kind"], id: string, decoration: string): Commit {
  return { kind, id, decoration, parents: "", author: "", date: "", subject: null, extra: [], body: [], hiddenBody: 0 };
}
