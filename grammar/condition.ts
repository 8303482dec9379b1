// The check of a `[[ … ]]` expression: the parser hands it each item as it reads
// one, and it throws bash's error at the first item bash would refuse.
import type * as A from "../src/ast/nodes.js";
import { ShellSyntaxError } from "./errors.js";

const UNARY_TESTS = new Set([..."abcdefghknoprstuvwxzGLNORS"].map((c) => "-" + c));
const BINARY_TESTS = new Set(["=", "==", "!=", "=~", "-eq", "-ne", "-lt", "-le", "-gt", "-ge", "-nt", "-ot", "-ef"]);

/**
 * bash's grammar of `[[ … ]]`, checked item by item as they are read: terms are
 * `! TERM`, `( EXPR )`, `UNARY WORD`, `WORD BINARY WORD` or a lone `WORD`, joined
 * by `&&` and `||`; a newline may stand where a term starts or after a whole one.
 * Operators are unquoted literal words, as bash sees them.
 */
export class ConditionCheck {
  /** A term, a unary test's operand, a binary operator (or the end of a lone word), its right side, or what may follow a term. */
  private expect: "term" | "operand" | "operator" | "right" | "after" = "term";
  private depth = 0;

  /** `text` is the word's value when it is a single literal. Returns whether the word is a binary operator. */
  word(text: string | null, shown: string, at: number): boolean {
    switch (this.expect) {
      case "term":
        if (text !== "!") this.expect = text !== null && UNARY_TESTS.has(text) ? "operand" : "operator";
        return false;
      case "operand":
        this.expect = "after";
        return false;
      case "operator":
        if (text === null || !BINARY_TESTS.has(text)) throw new ShellSyntaxError(at, "conditional binary operator expected");
        this.expect = "right";
        return true;
      case "right":
        // Even where a pattern is read, a bare `]]` ends the test for bash.
        if (text === "]]") this.missingArgument(at, "`]]`");
        this.expect = "after";
        return false;
      case "after":
        throw new ShellSyntaxError(at, `unexpected \`${shown}\` in conditional expression`);
    }
  }

  op(op: A.TestOp["op"], at: number): void {
    const e = this.expect;
    if (e === "operand" || e === "right") this.missingArgument(at, `\`${op}\``);
    if (e === "term" && op === "(") {
      this.depth++;
    } else if ((e === "operator" || e === "after") && (op === "&&" || op === "||")) {
      this.expect = "term";
    } else if ((e === "operator" || e === "after") && op === ")" && this.depth > 0) {
      this.depth--;
      this.expect = "after";
    } else if (e === "operator" && (op === "<" || op === ">")) {
      this.expect = "right";
    } else if (e === "operator" && op === "(") {
      throw new ShellSyntaxError(at, "conditional binary operator expected");
    } else {
      throw new ShellSyntaxError(at, `unexpected \`${op}\` in conditional expression`);
    }
  }

  newline(at: number): void {
    if (this.expect === "operator") throw new ShellSyntaxError(at, "conditional binary operator expected");
    if (this.expect === "operand" || this.expect === "right") this.missingArgument(at, "newline");
  }

  end(at: number): void {
    if (this.expect === "term") throw new ShellSyntaxError(at, "expected a conditional expression but found `]]`");
    if (this.expect === "operand" || this.expect === "right") this.missingArgument(at, "`]]`");
    if (this.depth > 0) throw new ShellSyntaxError(at, "expected `)` but found `]]`");
  }

  private missingArgument(at: number, found: string): never {
    const which = this.expect === "operand" ? "unary" : "binary";
    throw new ShellSyntaxError(at, `expected the argument of a conditional ${which} operator but found ${found}`);
  }
}
