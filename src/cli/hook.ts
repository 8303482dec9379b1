// `rtk hook <host>`: reads the host's event from stdin (at most 1 MiB, with a
// time limit), prints only the host's answer on stdout.
import { HOOK_ADAPTERS } from "../hosts/index.js";
import { MAX_EVENT_BYTES, runHook } from "../hosts/hook.js";
import { writeFd } from "./out.js";

const READ_TIMEOUT_MS = 5000;

export async function hookCli(args: string[]): Promise<number> {
  const name = args[0];
  const adapter = name ? HOOK_ADAPTERS.get(name) : undefined;
  if (!adapter) {
    writeFd(2, `rtk hook: unknown host \`${name ?? ""}\` (known: ${[...HOOK_ADAPTERS.keys()].join(", ")}); the command runs unchanged\n`);
    return 0;
  }
  const input = await readStdin(MAX_EVENT_BYTES + 1, READ_TIMEOUT_MS);
  let warned = false;
  const warn = (msg: string) => {
    if (warned) return;
    warned = true;
    writeFd(2, msg + "\n");
  };
  const { answer } = input === null ? { answer: adapter.passThrough } : runHook(adapter, input, process.env, warn);
  if (input === null) warn(`rtk hook ${adapter.name}: event too large or not received in time; the command runs unchanged`);
  if (answer.stdout) writeFd(1, answer.stdout);
  if (answer.stderr) writeFd(2, answer.stderr + "\n");
  return answer.exitCode;
}

/** stdin as text, or null when it exceeds `limit` bytes or does not end within `timeoutMs`. */
function readStdin(limit: number, timeoutMs: number): Promise<string | null> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stdin = process.stdin;
    const done = (v: string | null) => {
      clearTimeout(timer);
      stdin.removeAllListeners("data");
      stdin.removeAllListeners("end");
      stdin.removeAllListeners("error");
      stdin.destroy();
      resolve(v);
    };
    const timer = setTimeout(() => done(null), timeoutMs);
    stdin.on("data", (c: Buffer) => {
      size += c.length;
      if (size > limit) return done(null);
      chunks.push(c);
    });
    stdin.on("end", () => done(Buffer.concat(chunks).toString("utf8")));
    stdin.on("error", () => done(""));
  });
}
