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
import { ErrorLines, HeadCount } from "../kit.js";
import { linesText, omitted, type Filter, type FilterRun } from "../types.js";
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
  start(input, ctx): FilterRun {
    const passThrough = hasOption(argsAfterSub(input), ["-json", "--json"]);
    const errors = new ErrorLines();
    const out: string[] = [];
    const done = new Map<string, string[]>();
    let resource: Resource | null = null;
    let stack: Frame[] = [];
    let advice = false;
    let atParagraph = true;
    let leftOut = false;
    let chars = 0;

    const finish = () => {
      if (!resource) return;
      const r = resource;
      out.push(`${r.symbol} ${r.address}${r.action.startsWith("has moved") ? ` ${r.action}` : ""}${r.reasons.length ? ` ${r.reasons.join(" ")}` : ""}`);
      for (const c of r.changes) out.push(`    ${c}`);
      if (r.hidden) out.push(`    ${omitted(r.hidden, r.hidden === 1 ? "changed attribute" : "changed attributes", ctx.recall)}`);
      resource = null;
      stack = [];
    };

    const flushDone = () => {
      for (const [what, addresses] of done) out.push(`${what} complete (${addresses.length}): ${addresses.join(", ")}`);
      done.clear();
    };

    const inBlock = (text: string) => {
      const r = resource!;
      const keepChanges = r.symbol === "~" || r.symbol === "-/+" || r.symbol === "+/-";
      if (/^\s*# \(\d+ unchanged/.test(text)) return;
      const close = CLOSE.exec(text);
      if (close) {
        const frame = stack.pop();
        if (!frame) return finish();
        // A value recomputed on apply, or one going away whole: its old parts are not changes to read.
        if (/-> \(known after apply\)|-> null/.test(close[1]!)) return;
        const parent = stack[stack.length - 1];
        for (const k of frame.kept) take(parent, k);
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
      take(stack[stack.length - 1], `${attr[1]} ${path} = ${value}`);
    };

    const take = (frame: Frame | undefined, line: string) => {
      if (frame) return void frame.kept.push(line);
      const r = resource!;
      if (r.changes.length < MAX_CHANGES) r.changes.push(line);
      else r.hidden++;
    };

    return {
      line(stream, text) {
        if (stream === "err") return errors.add(text);
        if (passThrough) return;
        chars += text.length + 1;
        if (resource && (stack.length || RESOURCE.test(text) || !HEADER.test(text))) {
          const m = RESOURCE.exec(text);
          if (m && !stack.length && resource.symbol === "") {
            resource.symbol = m[1]!;
            stack = [];
            return;
          }
          if (resource.symbol === "" && /^\s*# \(/.test(text)) return void resource.reasons.push(text.trim().slice(2));
          if (resource.symbol !== "") return inBlock(text);
        }
        const h = HEADER.exec(text);
        if (h) {
          finish();
          resource = { address: h[1]!, action: h[2]!, symbol: h[2]!.startsWith("has moved") ? "->" : "", reasons: [], changes: [], hidden: 0 };
          if (resource.symbol === "->") {
            resource.symbol = "";
            out.push(`${h[1]} ${h[2]}`);
            resource = null;
          } else leftOut ||= /created|destroyed/.test(h[2]!);
          return;
        }
        if (text.trim() === "") {
          atParagraph = true;
          advice = false;
          return;
        }
        if (atParagraph && ADVICE.some((a) => text.startsWith(a))) advice = true;
        atParagraph = false;
        if (advice || CHATTER.test(text)) return;
        const c = COMPLETE.exec(text);
        if (c) {
          const list = done.get(c[2]!);
          if (list) list.push(c[1]!);
          else done.set(c[2]!, [c[1]!]);
          return;
        }
        flushDone();
        out.push(text);
      },
      end() {
        if (passThrough) return null;
        finish();
        flushDone();
        if (leftOut) out.push(`(attributes of created and destroyed resources left out [rtk recall ${ctx.recall.id()}])`);
        const stdout = linesText(out);
        if (stdout.length >= chars && chars > 0) return null;
        return { stdout, stderr: errors.text(ctx.recall) };
      },
    };
  },
};
