// `rtk hook <host>`: reads the host's event from stdin, prints only the host's
// answer on stdout. The event is answered as soon as its JSON object is whole,
// even if the host keeps stdin open; past 1 MiB, or after a second in which
// nothing came, the answer is the pass-through one.
import { HOOK_HOSTS } from "../hosts/index.js";
import { EventEnd, MAX_EVENT_BYTES, runHook } from "../hosts/hook.js";
import { recordContext, recordHook } from "../accounting/record.js";
import { writeFd } from "./out.js";
import { unknownWord } from "../text/suggest.js";

/** The longest rtk waits for more of an event: hosts write it at once, and the agent waits meanwhile. */
const READ_TIMEOUT_MS = 1000;

export async function hookCli(args: string[]): Promise<number> {
  const name = args[0];
  const host = name ? HOOK_HOSTS.get(name) : undefined;
  if (!host) {
    const problem = name === undefined ? `no host given; valid: ${[...HOOK_HOSTS.keys()].join(", ")}` : unknownWord("host", name, [...HOOK_HOSTS.keys()]);
    // Exit 0 whatever the mistake: a hook never blocks the agent (for Kiro, exit 2 would).
    writeFd(2, `rtk hook: ${problem}; the command runs unchanged\n`);
    return 0;
  }
  const input = await readEvent(MAX_EVENT_BYTES, READ_TIMEOUT_MS);
  const read = performance.now();
  let warned = false;
  const warn = (msg: string) => {
    if (warned) return;
    warned = true;
    writeFd(2, msg + "\n");
  };
  let answer;
  let record: (() => void) | undefined;
  if ("problem" in input) {
    answer = host.hook!.passThrough;
    warn(`rtk hook ${host.name}: ${input.problem}; the command runs unchanged`);
  } else {
    const run = runHook(host, input.bytes, process.env, warn);
    answer = run.answer;
    // Recorded once the host has its answer.
    if (run.decision) record = () => recordHook(process.env, { host: host.name, ...run.decision!, result: run.result, durationMs: answered - read });
    if (run.context) record = () => recordContext(process.env, { host: host.name, ...run.context! });
  }
  if (answer.stdout) writeFd(1, answer.stdout);
  if (answer.stderr) writeFd(2, answer.stderr + "\n");
  const answered = performance.now();
  record?.();
  return answer.exitCode;
}

/** The event's bytes: when its object is whole, or when stdin ends; a problem past `limit` bytes or `timeoutMs` without a byte. */
function readEvent(limit: number, timeoutMs: number): Promise<{ bytes: Buffer } | { problem: string }> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const end = new EventEnd();
    let size = 0;
    const stdin = process.stdin;
    const done = (v: { bytes: Buffer } | { problem: string }) => {
      clearTimeout(timer);
      stdin.removeAllListeners("data");
      stdin.removeAllListeners("end");
      stdin.removeAllListeners("error");
      stdin.destroy();
      resolve(v);
    };
    // The wait is for the next bytes, not for the whole event: a large event still arriving
    // on a busy machine is read to its end (or to the size limit).
    const idle = () => setTimeout(() => done({ problem: `no whole event on stdin: nothing came for ${timeoutMs} ms` }), timeoutMs);
    let timer = idle();
    stdin.on("data", (c: Buffer) => {
      clearTimeout(timer);
      timer = idle();
      size += c.length;
      if (size > limit) return done({ problem: "event larger than 1 MiB" });
      chunks.push(c);
      if (end.feed(c)) done({ bytes: Buffer.concat(chunks) });
    });
    stdin.on("end", () => done({ bytes: Buffer.concat(chunks) }));
    stdin.on("error", () => done({ bytes: Buffer.alloc(0) }));
  });
}
