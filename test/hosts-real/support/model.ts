// A loopback stand-in for a model API: it asks for one shell tool call per turn,
// in the order of its script, and records what the host sends back for each
// (the tool's result as the model receives it) and every request it gets.
// Each API's wire format is a dialect; the host under test is the real program.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  /** The tool call's id, as the host's hook events carry it. */
  id: string;
  /** The command the model asked for. */
  command: string;
  /** The tool result's text as the host sent it to the model. */
  text: string;
  /** The host marked the result as an error. */
  isError: boolean;
}

export interface Request {
  path: string;
  body: unknown;
}

/** One API's wire format. */
export interface Dialect {
  /**
   * The next answer for a request to `path`, given the script and what came back so far; null: 404.
   * `issued(id, k)` names the call asked for the `k`-th next command (default 0); `take(n)` gives the
   * next `n` commands at once, for a dialect that asks for several calls in one turn.
   */
  answer(
    path: string,
    body: Record<string, unknown>,
    next: (results: Received[]) => string | null,
    record: (r: Received) => void,
    issued?: (id: string, k?: number) => void,
    take?: (n: number) => string[],
  ): Reply | null;
}

export interface Reply {
  status?: number;
  /** A JSON body. */
  json?: unknown;
  /** Server-sent events, each an event name (or null) and its JSON data. */
  events?: [string | null, unknown][];
  /** Raw text lines of a stream (for dialects that are not SSE). */
  raw?: string;
}

export class ModelServer {
  private server: Server | undefined;
  readonly results: Received[] = [];
  /** The id of the tool call issued for each command of the script, by its index (a host may stop before it answers one). */
  readonly issued: string[] = [];
  readonly requests: Request[] = [];
  private index = 0;

  constructor(
    private readonly dialect: Dialect,
    private readonly script: readonly string[],
  ) {}

  async start(): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((r) => this.server!.listen(0, "127.0.0.1", r));
    return `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    const s = this.server;
    if (!s) return;
    s.closeAllConnections();
    await new Promise<void>((r) => s.close(() => r()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    let body: Record<string, unknown> = {};
    try {
      body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
    } catch {
      body = {};
    }
    const path = (req.url ?? "/").split("?")[0]!;
    this.requests.push({ path, body });
    const reply = this.dialect.answer(
      path,
      body,
      () => (this.index < this.script.length ? this.script[this.index]! : null),
      (r) => {
        this.results.push(r);
        this.index = this.results.length;
      },
      (id, k = 0) => {
        this.issued[this.index + k] ??= id;
      },
      (n) => this.script.slice(this.index, this.index + n),
    );
    if (!reply) {
      res.writeHead(404, { "content-type": "application/json" });
      res.end("{}");
      return;
    }
    if (reply.events) {
      res.writeHead(reply.status ?? 200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
      for (const [event, data] of reply.events) res.write(`${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`);
      res.end();
      return;
    }
    if (reply.raw !== undefined) {
      res.writeHead(reply.status ?? 200, { "content-type": "application/x-ndjson" });
      res.end(reply.raw);
      return;
    }
    res.writeHead(reply.status ?? 200, { "content-type": "application/json" });
    res.end(JSON.stringify(reply.json ?? {}));
  }
}

/** The text of a tool result's content (a string, or text blocks). */
export function contentText(c: unknown): string {
  if (typeof c === "string") return c;
  if (Array.isArray(c)) return c.map((b) => (b && typeof b === "object" && typeof (b as { text?: unknown }).text === "string" ? (b as { text: string }).text : "")).join("");
  return "";
}
