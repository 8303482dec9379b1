// `rtk doctor [--json]`.
import { doctor } from "../hosts/doctor.js";
import { parseOptions } from "./args.js";
import { usageError } from "./help.js";

export function doctorCli(args: string[]): number {
  const opts = parseOptions("doctor", args, { boolean: ["json"] });
  if (typeof opts === "number") return opts;
  if (opts._.length) return usageError("doctor", `unexpected \`${opts._[0]}\``);
  const r = doctor({ env: process.env, cwd: process.cwd() });
  if (opts["json"]) {
    process.stdout.write(JSON.stringify(r, null, 2) + "\n");
    return r.ok ? 0 : 1;
  }
  const lines = [`rtk ${r.version}`];
  if (!r.hosts.length) lines.push("no host has rtk installed (rtk init --agent <host>)");
  for (const h of r.hosts) {
    lines.push(`${h.title} (${h.scope}): ${h.file}`);
    for (const c of h.checks) lines.push(`  ${c.warning ? "warn" : c.ok ? "ok  " : "FAIL"} ${c.name}: ${c.detail}${c.fix ? `\n       ${c.warning ? "what to do" : "fix"}: ${c.fix}` : ""}`);
  }
  process.stdout.write(lines.join("\n") + "\n");
  return r.ok ? 0 : 1;
}
