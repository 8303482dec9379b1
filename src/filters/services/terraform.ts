// `terraform` and `tofu` plan, apply, destroy and init. A plan is its resource
// actions, one line each with terraform's own symbol and the address —
//
//   - terraform_data.alarm["api"] (because key ["api"] is not in for_each map)
//   -/+ terraform_data.dns["api"]
//       ~ triggers_replace = "v1" -> "v2"
//   ~ terraform_data.service["web"]
//       ~ input.replicas = 2 -> 4
//   + terraform_data.queue["emails"]
//   Plan: 10 to add, 6 to change, 7 to destroy.
//
// — an update or a replacement with the attributes that change (nested ones
// by their path; values only known after apply, and the old values of what a
// replacement recomputes, go), a created or destroyed resource without its
// attributes (in the recall entry). The summary, the output changes,
// warnings and errors stay as terraform prints them. Refreshing lines, the
// symbol legend, progress (`Creating...`, `Still creating...`) and the
// advice paragraphs go; an apply's completions are grouped by what happened.
import { ErrorLines } from "../kit.js";
import { linesText, omitted, type CompactOutput, type Filter, type FilterContext, type FilterInput, type FilterRun } from "../types.js";
import { argsAfterSub, hasOption } from "./common.js";

/** Paragraphs of advice and legend: dropped from their first line to the next blank line. */
const ADVICE = [
  "Terraform used the selected providers",
  "OpenTofu used the selected providers",
  "Note: You didn't use the -out option",
  "Terraform has compared your real infrastructure",
  "OpenTofu has compared your real infrastructure",
  "You may now begin working with",
  "If you ever set or change modules",
  "Terraform has created a lock file",
  "OpenTofu has created a lock file",
];
/** Lines of chatter: dropped wherever they stand. */
const CHATTER =
  /^(?:Initializing (?:the backend|provider plugins|modules)\.\.\.|- Finding .* versions matching|- Reusing previous version of|Terraform will perform the following actions:|OpenTofu will perform the following actions:|─+$|.*: (?:Refreshing state|Reading|Still \w+|Creating|Destroying|Modifying)\.\.\.(?: \[.*\])?$)/;
const HEADER =
  /^\s*# (\S.*?) (will be created|will be destroyed|will be updated in-place|must be replaced|will be replaced, as requested|will be read during apply|is tainted, so must be replaced|has moved to \S.*)$/;
const RESOURCE = /^\s*(\+|~|-|-\/\+|\+\/-|<=) (?:resource|data) "[^"]*" "[^"]*" \{$/;
const COMPLETE = /^(.+): (Creation|Destruction|Modifications|Read) complete after \S+(?: \[id=.*\])?$/;
const ATTR = /^\s*([~+-]|-\/\+)?\s*("[^"]*"|[\w.-]+)\s*=\s*(.*)$/;
const BLOCK = /^\s*([~+-]|-\/\+)?\s*([\w.-]+) \{$/;
const CLOSE = /^\s*[}\]](.*)$/;

/** A resource's changed attributes shown at the most. */
const MAX_CHANGES = 12;

interface Frame {
  name: string;
  kept: string[];
}

interface Resource {
  address: string;
  action: string;
  symbol: string;
  reasons: string[];
  changes: string[];
  hidden: number;
}

export const terraform: Filter = {
  id: "terraform",
  // An apply or destroy that asks for confirmation must show its question as it comes.
  inherits: (input) => {
    const sub = input.argv[input.subIndex];
    const args = argsAfterSub(input);
    return (sub === "apply" || sub === "destroy") && !hasOption(args, ["-auto-approve", "--auto-approve"]) && !args.some((a) => !a.startsWith("-"));
  },
  start: (input, ctx) => new TerraformRun(input, ctx),
};

class TerraformRun implements FilterRun {
  private readonly passThrough: boolean;
  private readonly errors = new ErrorLines();
  private readonly out: string[] = [];
  /** An apply's completions, by what happened, until a line of another kind. */
  private readonly done = new Map<string, string[]>();
  private resource: Resource | null = null;
  /** The blocks open in the current resource. */
  private stack: Frame[] = [];
  private advice = false;
  private atParagraph = true;
  private leftOut = false;
  private chars = 0;

  constructor(
    input: FilterInput,
    private readonly ctx: FilterContext,
  ) {
    this.passThrough = hasOption(argsAfterSub(input), ["-json", "--json"]);
  }

  line(stream: "out" | "err", text: string): void {
    if (stream === "err") return this.errors.add(text);
    if (this.passThrough) return;
    this.chars += text.length + 1;
    const resource = this.resource;
    if (resource && (this.stack.length || RESOURCE.test(text) || !HEADER.test(text))) {
      const m = RESOURCE.exec(text);
      if (m && !this.stack.length && resource.symbol === "") {
        resource.symbol = m[1]!;
        this.stack = [];
        return;
      }
      if (resource.symbol === "" && /^\s*# \(/.test(text)) return void resource.reasons.push(text.trim().slice(2));
      if (resource.symbol !== "") return this.inBlock(resource, text);
    }
    const h = HEADER.exec(text);
    if (h) return this.header(h[1]!, h[2]!);
    if (text.trim() === "") {
      this.atParagraph = true;
      this.advice = false;
      return;
    }
    if (this.atParagraph && ADVICE.some((a) => text.startsWith(a))) this.advice = true;
    this.atParagraph = false;
    if (this.advice || CHATTER.test(text)) return;
    const c = COMPLETE.exec(text);
    if (c) {
      const list = this.done.get(c[2]!);
      if (list) list.push(c[1]!);
      else this.done.set(c[2]!, [c[1]!]);
      return;
    }
    this.flushDone();
    this.out.push(text);
  }

  end(): CompactOutput | null {
    if (this.passThrough) return null;
    this.finish();
    this.flushDone();
    if (this.leftOut) this.out.push(`(attributes of created and destroyed resources left out [rtk recall ${this.ctx.recall.id()}])`);
    const stdout = linesText(this.out);
    if (stdout.length >= this.chars && this.chars > 0) return null;
    return { stdout, stderr: this.errors.text(this.ctx.recall) };
  }

  /** `# ADDRESS will be …`: a moved resource is its line; any other opens the resource. */
  private header(address: string, action: string): void {
    this.finish();
    if (action.startsWith("has moved")) {
      this.out.push(`${address} ${action}`);
      return;
    }
    this.resource = { address, action, symbol: "", reasons: [], changes: [], hidden: 0 };
    this.leftOut ||= /created|destroyed/.test(action);
  }

  private finish(): void {
    const r = this.resource;
    if (!r) return;
    this.out.push(`${r.symbol} ${r.address}${r.action.startsWith("has moved") ? ` ${r.action}` : ""}${r.reasons.length ? ` ${r.reasons.join(" ")}` : ""}`);
    for (const c of r.changes) this.out.push(`    ${c}`);
    if (r.hidden) this.out.push(`    ${omitted(r.hidden, r.hidden === 1 ? "changed attribute" : "changed attributes", this.ctx.recall)}`);
    this.resource = null;
    this.stack = [];
  }

  private flushDone(): void {
    for (const [what, addresses] of this.done) this.out.push(`${what} complete (${addresses.length}): ${addresses.join(", ")}`);
    this.done.clear();
  }

  /** A line inside resource `r`'s block: a nested block opens or closes, an attribute changes. */
  private inBlock(r: Resource, text: string): void {
    const stack = this.stack;
    const keepChanges = r.symbol === "~" || r.symbol === "-/+" || r.symbol === "+/-";
    if (/^\s*# \(\d+ unchanged/.test(text)) return;
    const close = CLOSE.exec(text);
    if (close) {
      const frame = stack.pop();
      if (!frame) return this.finish();
      // A value recomputed on apply, or one going away whole: its old parts are not changes to read.
      if (/-> \(known after apply\)|-> null/.test(close[1]!)) return;
      const parent = stack[stack.length - 1];
      for (const k of frame.kept) this.take(r, parent, k);
      return;
    }
    const block = BLOCK.exec(text);
    const attr = block ? null : ATTR.exec(text);
    const name = block ? block[2]! : attr?.[2];
    const value = attr?.[3] ?? "";
    if (name !== undefined && (block || /[{[]$/.test(value))) {
      stack.push({ name: stack.length ? `${stack[stack.length - 1]!.name}.${name}` : name, kept: [] });
      return;
    }
    if (!keepChanges || !attr || !attr[1]) return;
    const forces = /# forces replacement$/.test(value);
    if (!forces && (/\(known after apply\)$/.test(value) || (attr[1] === "-" && / -> null$/.test(value) && stack.length > 0 && r.symbol !== "~"))) return;
    const path = stack.length ? `${stack[stack.length - 1]!.name}.${attr[2]}` : attr[2]!;
    this.take(r, stack[stack.length - 1], `${attr[1]} ${path} = ${value}`);
  }

  /** A change kept in its enclosing block, or in the resource's list (past MAX_CHANGES, counted). */
  private take(r: Resource, frame: Frame | undefined, line: string): void {
    if (frame) return void frame.kept.push(line);
    if (r.changes.length < MAX_CHANGES) r.changes.push(line);
    else r.hidden++;
  }
}
