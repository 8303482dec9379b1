// curl and wget, real, against an HTTP server this test starts: each command
// run plainly and through the built bin/rtk, and checked — every HTTP status
// and redirect of the plain run in the compact one, the body verbatim (cut
// only past the content budget, with the exact count), the exit code, never
// longer than the plain run, and a golden compact output (the server's port,
// dates and speeds normalised).
import assert from "node:assert/strict";
import { execFile, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, test } from "node:test";
import { repoRoot } from "../../support/corpus.js";
import { launch, type Run } from "../../support/launch.js";
import { COMPACT_EVERY_OUTPUT } from "../../support/sandbox.js";

const GOLDEN = join(repoRoot, "test", "filters", "golden", "services", "http");
const UPDATE = process.env["RTK_UPDATE_GOLDEN"] === "1";
const has = (tool: string) => spawnSync("sh", ["-c", `command -v ${tool}`]).status === 0;

/** Items enough for a body past the content budget (30,000 characters). */
const BIG = JSON.stringify({ items: Array.from({ length: 900 }, (_, i) => ({ id: i, sku: `SKU-${1000 + i}`, name: `Product ${i}`, price: (i * 1.37).toFixed(2) })) }, null, 2) + "\n";
const ORDERS = JSON.stringify({ orders: Array.from({ length: 40 }, (_, i) => ({ id: 5000 + i, status: ["paid", "shipped", "refunded"][i % 3], total: (i * 12.5).toFixed(2) })) }, null, 2) + "\n";

let server: Server;
let base = "";
let root = "";

before(async () => {
  if (process.env["RTK_TEST_BUILT"] !== "1") {
    const b = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, encoding: "utf8" });
    assert.equal(b.status, 0, `build failed: ${b.stderr}`);
  }
  root = mkdtempSync(join(tmpdir(), "rtk-http-"));
  server = createServer((req, res) => {
    const json = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(body), ...headers });
      res.end(body);
    };
    if (req.url === "/old") return json(301, "", { Location: "/redirect" });
    if (req.url === "/redirect") return json(302, "", { Location: "/orders" });
    if (req.url === "/orders") return json(200, ORDERS);
    if (req.url === "/big") return json(200, BIG);
    if (req.url === "/missing") return json(404, '{"error":"not found"}\n');
    if (req.url === "/page") {
      res.writeHead(500, { "Content-Type": "text/html" });
      return res.end("<html><body><h1>Internal Server Error</h1></body></html>\n");
    }
    json(200, '{"ok":true}');
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

after(() => {
  server?.close();
  if (root) rmSync(root, { recursive: true, force: true });
});

const env = () => ({
  PATH: process.env["PATH"] ?? "/usr/bin:/bin",
  HOME: join(root, "home"),
  XDG_DATA_HOME: join(root, "data"),
  XDG_CONFIG_HOME: join(root, "config"),
  XDG_CACHE_HOME: join(root, "cache"),
  LC_ALL: "C",
  TZ: "UTC",
  RTK_NO_TRACK: "1",
  ...COMPACT_EVERY_OUTPUT,
});

/** The tool alone (asynchronously: the server answers from this process). */
function plain(argv: readonly string[], cwd: string): Promise<Run> {
  return new Promise((resolve) => {
    execFile(argv[0]!, argv.slice(1), { cwd, env: env(), encoding: "utf8", maxBuffer: 1 << 26 }, (error, stdout, stderr) => {
      const code = error && typeof (error as { code?: unknown }).code === "number" ? ((error as { code: number }).code as number) : 0;
      resolve({ status: code, stdout, stderr } as Run);
    });
  });
}

/** A command and its run through rtk, in a folder of its own (wget saves files). */
async function both(argv: readonly string[]): Promise<{ raw: Run; rtk: Run }> {
  const dir = (name: string) => {
    const d = mkdtempSync(join(root, name));
    return d;
  };
  const raw = await plain(argv, dir("raw-"));
  const rtk = await launch(argv, { cwd: dir("rtk-"), env: env() });
  return { raw, rtk };
}

/** What the golden file holds: the port, dates, times and speeds vary from run to run. */
const normalise = (text: string) =>
  text
    .replaceAll(base, "http://127.0.0.1:<port>")
    .replace(/127\.0\.0\.1:\d+/g, "127.0.0.1:<port>")
    .replace(/^(<?\s*)Date: .*$/gm, "$1Date: <date>")
    .replace(/\d{4}-\d\d-\d\d \d\d:\d\d:\d\d/g, "<time>")
    .replace(/\([\d.]+ [KMG]?B\/s\)/g, "(<speed>)")
    .replace(/after \d+ ms/g, "after <n> ms")
    .replace(/User-Agent: (curl|Wget)\/\S+/g, "User-Agent: $1/<version>")
    .replace(/rtk recall [0-9a-f]{7}/g, "rtk recall <id>");

/** The facts of a plain run: every status line (curl's and wget's), every redirect, every error line. */
function factsOf(raw: Run): string[] {
  const text = `${raw.stdout}\n${raw.stderr}`.replace(/\r/g, "").replace(/after \d+ ms/g, "after <n> ms");
  const facts: string[] = [];
  for (const line of text.split("\n")) {
    const status = /^(?:< |\s*)(HTTP\/[\d.]+ \d{3}.*)$/.exec(line);
    if (status) facts.push(status[1]!.trim());
    const wget = /awaiting response\.\.\. (\d{3} .*)$/.exec(line);
    if (wget) facts.push(wget[1]!);
    if (/^Location: .* \[following\]$/.test(line) || /^curl: \(\d+\)/.test(line) || /^ERROR \d+/.test(line) || /^(?:< )?[Ll]ocation: /.test(line)) facts.push(line.replace(/^< /, "").trim());
  }
  return facts;
}

/** Commands as an agent runs them. */
const CASES: { name: string; argv: (base: string) => string[] }[] = [
  { name: "curl-json", argv: (b) => ["curl", `${b}/orders`] },
  { name: "curl-silent", argv: (b) => ["curl", "-s", `${b}/orders`] },
  { name: "curl-include-follow", argv: (b) => ["curl", "-i", "-L", `${b}/old`] },
  { name: "curl-verbose-404", argv: (b) => ["curl", "-v", `${b}/missing`] },
  { name: "curl-fail", argv: (b) => ["curl", "-fsS", `${b}/missing`] },
  { name: "curl-head", argv: (b) => ["curl", "-I", `${b}/page`] },
  { name: "curl-refused", argv: () => ["curl", "http://127.0.0.1:9/nothing"] },
  { name: "curl-big", argv: (b) => ["curl", `${b}/big`] },
  { name: "wget-save", argv: (b) => ["wget", `${b}/orders`, "-O", "orders.json"] },
  { name: "wget-follow-headers", argv: (b) => ["wget", "-S", "-O", "-", `${b}/old`] },
  { name: "wget-404", argv: (b) => ["wget", `${b}/missing`] },
];

for (const c of CASES) {
  const tool = c.name.split("-")[0]!;
  describe(`http/${c.name}`, { skip: !has(tool) && `${tool} is not installed` }, () => {
    let runs: Promise<{ raw: Run; rtk: Run }> | null = null;
    const ran = () => (runs ??= both(c.argv(base)));

    test("the exit code is the tool's", async () => {
      const { raw, rtk } = await ran();
      assert.equal(rtk.status, raw.status, rtk.stderr);
    });

    test("every status, redirect and error line is kept", async () => {
      const { raw, rtk } = await ran();
      const compact = `${rtk.stdout}\n${rtk.stderr}`.replace(/\r/g, "").replace(/after \d+ ms/g, "after <n> ms");
      assert.deepEqual(
        factsOf(raw).filter((f) => !compact.split("\n").some((l) => l.includes(f))),
        [],
      );
    });

    test("never longer than the plain run", async () => {
      const { raw, rtk } = await ran();
      assert.ok(rtk.stdout.length + rtk.stderr.length <= raw.stdout.length + raw.stderr.length, rtk.stderr);
    });

    test("golden compact output", async () => {
      const { rtk } = await ran();
      const text = normalise(`$ rtk ${c.argv(base).join(" ")}\nexit ${rtk.status}\n--- stdout\n${rtk.stdout}--- stderr\n${rtk.stderr}`);
      const file = join(GOLDEN, `${c.name}.txt`);
      if (UPDATE || !existsSync(file)) {
        mkdirSync(join(file, ".."), { recursive: true });
        writeFileSync(file, text);
      }
      assert.equal(text, readFileSync(file, "utf8"));
    });
  });
}

describe("http bodies", { skip: !has("curl") && "curl is not installed" }, () => {
  test("a JSON body is printed verbatim and the progress meter goes", async () => {
    const { raw, rtk } = await both(["curl", `${base}/orders`]);
    assert.equal(rtk.stdout, ORDERS);
    assert.equal(raw.stdout, ORDERS);
    assert.match(raw.stderr, /% Total/);
    assert.equal(rtk.stderr, "");
  });

  test("a body past the content budget keeps its head and tail, the lines between counted exactly and recalled whole", async () => {
    const { rtk } = await both(["curl", "-s", `${base}/big`]);
    const m = /^… \+(\d+) more lines \[rtk recall ([0-9a-f]+)\]$/m.exec(rtk.stdout);
    assert.ok(m, rtk.stdout.slice(0, 200));
    const shown = rtk.stdout.split("\n").filter((l) => l !== "" && !l.startsWith("… +")).length;
    assert.equal(shown + Number(m[1]), BIG.trimEnd().split("\n").length);
    assert.ok(BIG.startsWith(rtk.stdout.slice(0, rtk.stdout.indexOf("\n… +"))));
    assert.ok(BIG.endsWith(rtk.stdout.slice(rtk.stdout.indexOf("]\n", rtk.stdout.indexOf("\n… +")) + 2)));
  });

  test("the wget download saves the same file", async () => {
    const dir = mkdtempSync(join(root, "save-"));
    const r = await launch(["wget", "-q", `${base}/orders`, "-O", "o.json"], { cwd: dir, env: env() });
    assert.equal(r.status, 0, r.stderr);
    assert.equal(readFileSync(join(dir, "o.json"), "utf8"), ORDERS);
  });
});
