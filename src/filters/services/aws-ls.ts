// `aws s3 ls`: the CLI pads each object's size to ten columns and each
// prefix's `PRE` to thirty, and a recursive listing repeats every key's
// folder and, for objects uploaded together, the same date on every line.
// Kept: every prefix, every object's date, time, size and key, every bucket,
// the summary (`Total Objects:`, `Total Size:`) as printed. The padding goes;
// prefixes are said on one line; objects of one folder (two or more) stand
// under that folder's title with their count, and the date once there when
// all of them share it:
//
//   assets/ (12; 2026-12-03):
//     09:14:02 48213 app-1f0c2b9e.js
//
// A single object keeps its line (date, time, size, whole key). Past the list
// budget a folder's remaining objects are counted behind a recall marker.
// Any line the listing format does not hold (an error, a warning) makes the
// output print as the CLI printed it; stderr is kept whole.
import { limitsOf } from "../budget.js";
import { omitted, type RecallRef } from "../types.js";
import { wholeStdout } from "./common.js";

const OBJECT = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d) +(\d+|\d+(?:\.\d)? (?:Bytes?|KiB|MiB|GiB|TiB|PiB|EiB)) (.+)$/;
const PREFIX = /^ +PRE (.+)$/;
const SUMMARY = /^ *(Total Objects|Total Size): (.+)$/;

interface S3Object {
  date: string;
  time: string;
  size: string;
  key: string;
}

function dirOf(key: string): string {
  return key.slice(0, key.lastIndexOf("/") + 1);
}

function listing(lines: readonly string[], budget: number, recall: RecallRef): string[] | null {
  const prefixes: string[] = [];
  const other: string[] = [];
  const folders = new Map<string, S3Object[]>();
  let objects = 0;
  for (const line of lines) {
    const o = OBJECT.exec(line);
    if (o) {
      const obj = { date: o[1]!, time: o[2]!, size: o[3]!, key: o[4]! };
      const dir = dirOf(obj.key);
      const f = folders.get(dir);
      if (f) f.push(obj);
      else folders.set(dir, [obj]);
      objects++;
      continue;
    }
    const p = PREFIX.exec(line);
    if (p) prefixes.push(p[1]!);
    else if (SUMMARY.test(line)) other.push(line.trim());
    // A bucket (`2026-01-05 10:12:44 shop-web-prod`) is as short as it can be.
    else if (/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d \S+$/.test(line)) other.push(line);
    else if (line.trim()) return null;
  }
  if (!objects && !prefixes.length) return null;
  const out: string[] = [];
  if (prefixes.length > 1 && !prefixes.some((p) => p.includes(", "))) out.push(`PRE (${prefixes.length}): ${prefixes.join(", ")}`);
  else out.push(...prefixes.map((p) => `PRE ${p}`));
  let used = 0;
  for (const [dir, objs] of folders) {
    if (objs.length === 1) {
      const o = objs[0]!;
      out.push(`${o.date} ${o.time} ${o.size} ${o.key}`);
      continue;
    }
    const date = objs.every((o) => o.date === objs[0]!.date) ? objs[0]!.date : null;
    out.push(`${dir || "./"} (${objs.length}${date ? `; ${date}` : ""}):`);
    let shown = 0;
    for (const o of objs) {
      const line = `  ${date ? "" : `${o.date} `}${o.time} ${o.size} ${o.key.slice(dir.length)}`;
      if (used + line.length + 1 > budget) break;
      used += line.length + 1;
      out.push(line);
      shown++;
    }
    const more = objs.length - shown;
    if (more) out.push(`  ${omitted(more, more === 1 ? "object" : "objects", recall)}`);
  }
  return [...out, ...other];
}

// `ls` prints this listing whatever --output says.
export const awsLs = wholeStdout("aws.ls", (_input, ctx) => (lines) => listing(lines, limitsOf(ctx).list, ctx.recall));
