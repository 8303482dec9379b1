// Process start of the built CLI against a bare Node start, alternated.
import { spawnSync } from "node:child_process";
import { alternate, type Command } from "./harness/alternate.js";
import { rtkCli, root, scale, type Bench } from "./harness/context.js";
import { duration, sig } from "./harness/report.js";

const bench: Bench = async (ctx) => {
  await ctx.report.section("process start: rtk explain vs bare node (whole process)", ["command", "median", "min", "max"], (area) => {
    const node = process.execPath;
    const rtk: Command = { label: "rtk explain --json 'git status'", argv: [node, rtkCli, "explain", "--json", "git status"], cwd: root };
    const bare: Command = { label: "node -e 0", argv: [node, "-e", "0"], cwd: root };

    // Timing a command that fails would measure its error path.
    const once = spawnSync(rtk.argv[0]!, rtk.argv.slice(1), { encoding: "utf8" });
    const answered = once.status === 0 && parsesOk(once.stdout);
    const check = area.check("rtk explain answers parse ok", answered ? 1 : 0, "", { equals: 1 }, "correctness");
    if (!answered) {
      area.row(["rtk explain answers parse ok", "no", "", ""], check);
      return;
    }

    const rounds = scale(ctx, { full: 30, ci: 10 });
    const r = alternate(rtk, bare, { warmupRounds: 2, rounds });
    area.row([rtk.label, duration(r.a.median), duration(r.a.min), duration(r.a.max)]);
    area.row([bare.label, duration(r.b.median), duration(r.b.min), duration(r.b.max)]);
    area.row(["ratio of medians", sig(r.ratio), "", ""]);
    area.row(["difference of medians", duration(r.a.median - r.b.median), "", ""]);
    area.row(["rtk explain answers parse ok", "yes", "", ""], check);
    area.note(`${rounds} rounds, alternated A B A B …, after 2 untimed; no target yet (rtk rewrite will have ≤ 1.15)`);
    area.figure("rounds", rounds);
    area.figure("rtk", r.a);
    area.figure("node", r.b);
    area.figure("ratio", r.ratio);
  });
};

function parsesOk(stdout: string): boolean {
  try {
    return (JSON.parse(stdout) as { parse?: { ok?: boolean } }).parse?.ok === true;
  } catch {
    return false;
  }
}

export default bench;
