// The container, cluster, GitHub and infrastructure filters on their fixtures
// (test/fixtures/tools: terraform recorded from the real tool by `npm run
// fixtures`; docker, podman, kubectl, helm and gh written from their
// documented formats), each played through the built bin/rtk with the tool
// stood in on PATH and checked: golden compact output, every fact of the raw
// output (read by facts.ts, not by the filters), the tool's exit
// code, never longer than the raw output.
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { before, describe, test } from "node:test";
import { repoRoot } from "../../support/corpus.js";
import { launch, RTK as RTK_BIN, type Run } from "../../support/launch.js";
import { filterOf, replay, toolCases, type ToolCase } from "../../support/replay.js";
import { factsOf, linesStoodFor, lostFacts, unbraced } from "./facts.js";
import { loadTokenizer, type Tokenizer } from "../../../bench/inputs/tokenizer.js";
import { minifyJson } from "../../../src/filters/services/gh-api.js";
import { dockerRun } from "../../../src/filters/services/docker-run.js";
import { allRoutes } from "../../../src/routes/registry.js";

const GOLDEN = join(repoRoot, "test", "filters", "golden", "services");
const UPDATE = process.env["RTK_UPDATE_GOLDEN"] === "1";
export const SERVICE_TOOLS = ["docker", "podman", "kubectl", "helm", "gh", "terraform", "psql", "mysql", "aws", "gcloud", "az"];

before(() => {
  if (process.env["RTK_TEST_BUILT"] !== "1") {
    const b = spawnSync(process.execPath, ["scripts/build.mjs"], { cwd: repoRoot, encoding: "utf8" });
    assert.equal(b.status, 0, `build failed: ${b.stderr}`);
  }
});

const normalise = (text: string) => text.replace(/rtk recall [0-9a-f]{7}/g, "rtk recall <id>");

const runs = new Map<string, Promise<Run>>();
const played = (c: ToolCase) => {
  let r = runs.get(c.name);
  if (!r) runs.set(c.name, (r = replay(c)));
  return r;
};

/** A user config file (limits) for one test. */
function writeConfig(text: string): string {
  const path = join(mkdtempSync(join(tmpdir(), "rtk-services-")), "config.toml");
  writeFileSync(path, text);
  return path;
}

const cases = SERVICE_TOOLS.flatMap((t) => toolCases(t));
let tokenizer: Tokenizer | undefined;
const named = (name: string) => cases.find((c) => c.name === name)!;

for (const c of cases) {
  describe(c.name, () => {
    test("the exit code is the tool's", async () => {
      const r = await played(c);
      assert.equal(r.status, c.exit, r.stderr);
    });

    test("golden compact output", async () => {
      const r = await played(c);
      const text = `$ rtk ${c.argv.join(" ")}\nexit ${r.status}\n--- stdout\n${normalise(r.stdout)}--- stderr\n${normalise(r.stderr)}`;
      const file = join(GOLDEN, `${c.name}.txt`);
      if (UPDATE || !existsSync(file)) {
        mkdirSync(join(file, ".."), { recursive: true });
        writeFileSync(file, text);
      }
      assert.equal(text, readFileSync(file, "utf8"));
    });

    test("every fact of the raw output is kept", async () => {
      const r = await played(c);
      assert.deepEqual(lostFacts(r.stdout + r.stderr, factsOf(c, filterOf(c))), []);
    });

    if (filterOf(c) === "logs") {
      test("every line of the log is shown, counted in a repeat, or behind a marker", async () => {
        const r = await played(c);
        const count = (t: string) => t.split("\n").length - (t.endsWith("\n") || t === "" ? 1 : 0);
        assert.equal(linesStoodFor(r.stdout), count(c.stdout));
        assert.equal(linesStoodFor(r.stderr), count(c.stderr));
      });
    }

    test("never longer than the raw output", async () => {
      const r = await played(c);
      const raw = Buffer.byteLength(c.stdout) + Buffer.byteLength(c.stderr);
      const compact = Buffer.byteLength(r.stdout) + Buffer.byteLength(r.stderr);
      assert.ok(compact <= raw, `compact ${compact} bytes > raw ${raw} bytes`);
      // Nor in tokens (o200k): padding costs few, so a compact form can lose there while it wins in bytes.
      tokenizer ??= await loadTokenizer();
      const rawTokens = tokenizer.count(c.stdout + c.stderr);
      const compactTokens = tokenizer.count(r.stdout + r.stderr);
      assert.ok(compactTokens <= rawTokens, `compact ${compactTokens} tokens > raw ${rawTokens} tokens (${tokenizer.name})`);
    });
  });
}

/** Commands as agents write them, and their rewrite. */
const REWRITES: readonly [string, string][] = [
  ["docker ps -a", "rtk docker ps -a"],
  ["docker images", "rtk docker images"],
  ["docker image ls", "rtk docker image ls"],
  ["docker compose ps", "rtk docker compose ps"],
  ["docker logs --tail 200 api", "rtk docker logs --tail 200 api"],
  ["docker compose logs worker", "rtk docker compose logs worker"],
  ["podman ps -a", "rtk podman ps -a"],
  ["docker build -t shop-api:dev .", "rtk docker build -t shop-api:dev ."],
  ["docker buildx build --platform linux/amd64 .", "rtk docker buildx build --platform linux/amd64 ."],
  ["docker compose build api", "rtk docker compose build api"],
  ["docker pull node:20-alpine", "rtk docker pull node:20-alpine"],
  ["kubectl get pods -n shop", "rtk kubectl get pods -n shop"],
  ["kubectl -n shop logs deploy/api --since 1h", "rtk kubectl -n shop logs deploy/api --since 1h"],
  ["helm list -A", "rtk helm list -A"],
  ["helm status shop-api -n shop --show-resources", "rtk helm status shop-api -n shop --show-resources"],
  ["helm upgrade --install shop-api ./chart -n shop", "rtk helm upgrade --install shop-api ./chart -n shop"],
  ["kubectl apply -f k8s/", "rtk kubectl apply -f k8s/"],
  ["kubectl describe pod api-7d9f8b6c5d-x2k4p -n shop", "rtk kubectl describe pod api-7d9f8b6c5d-x2k4p -n shop"],
  ["kubectl rollout status deployment/api -n shop", "rtk kubectl rollout status deployment/api -n shop"],
  ["gh pr list", "rtk gh pr list"],
  ["gh issue list --label bug", "rtk gh issue list --label bug"],
  ["gh run list --limit 20", "rtk gh run list --limit 20"],
  ["gh pr checks 1473", "rtk gh pr checks 1473"],
  ["gh pr view 1478", "rtk gh pr view 1478"],
  ["gh pr diff 1478", "rtk gh pr diff 1478"],
  ["az vm list -d -o table", "rtk az vm list -d -o table"],
  ["az deployment group create -g rg-shop-prod -f infra/main.bicep", "rtk az deployment group create -g rg-shop-prod -f infra/main.bicep"],
  ["gh run view 12087734521 --log-failed", "rtk gh run view 12087734521 --log-failed"],
  ["aws s3 sync dist/ s3://shop-web-prod/ --delete", "rtk aws s3 sync dist/ s3://shop-web-prod/ --delete"],
  ["aws --profile prod ec2 describe-instances --output table", "rtk aws --profile prod ec2 describe-instances --output table"],
  ["aws s3 ls s3://shop-web-prod/ --recursive --human-readable --summarize", "rtk aws s3 ls s3://shop-web-prod/ --recursive --human-readable --summarize"],
  ["aws --profile prod s3 ls", "rtk aws --profile prod s3 ls"],
  ["gcloud run deploy shop-api --source . --region europe-west1", "rtk gcloud run deploy shop-api --source . --region europe-west1"],
  ["gcloud --project acme-shop builds submit --tag gcr.io/acme-shop/api", "rtk gcloud --project acme-shop builds submit --tag gcr.io/acme-shop/api"],
  ["aws logs tail /ecs/shop-api --since 1h", "rtk aws logs tail /ecs/shop-api --since 1h"],
  ["gh issue view 2210 --comments", "rtk gh issue view 2210 --comments"],
  ["gh api repos/acme/shop/pulls", "rtk gh api repos/acme/shop/pulls"],
  ["docker run --rm alpine echo hi", "rtk docker run --rm alpine echo hi"],
  ["terraform plan", "rtk terraform plan"],
  ["terraform -chdir=infra plan -out tfplan", "rtk terraform -chdir=infra plan -out tfplan"],
  ["tofu apply -auto-approve", "rtk tofu apply -auto-approve"],
  ["curl -s https://api.example.com/v1/orders", "rtk curl -s https://api.example.com/v1/orders"],
  ["wget https://example.com/a.tar.gz", "rtk wget https://example.com/a.tar.gz"],
  ["psql -h localhost -U app -d shop -c 'SELECT * FROM orders'", "rtk psql -h localhost -U app -d shop -c 'SELECT * FROM orders'"],
  ['mysql -t -u app shop -e "SHOW TABLES"', 'rtk mysql -t -u app shop -e "SHOW TABLES"'],
];

/** Commands whose output another program reads, or that have no filter: never rewritten. */
const NOT_REWRITTEN = [
  "aws configure",
  "gcloud compute instances list --project acme-shop",
  "gcloud run services list",
  "gcloud builds list",
  "az login",
  "az deployment group create -g rg-shop-prod -f infra/main.bicep --confirm-with-what-if",
  "aws sso login --profile prod",
  "aws ssm start-session --target i-0abc",
  "curl -s https://api.example.com | jq .",
  "aws s3 ls s3://shop-logs/ --recursive | grep 2026/11/21",
  "gh api repos/acme/shop/pulls | jq length",
  "kubectl logs api | grep ERROR",
  "kubectl exec -it api -- sh",
];

describe("rewrite", () => {
  const env = { PATH: `${join(repoRoot, "bin")}:${process.env["PATH"] ?? "/usr/bin:/bin"}`, HOME: "/nonexistent", RTK_NO_TRACK: "1" };
  test("routes these tools", async () => {
    for (const [cmd, want] of REWRITES) {
      const r = await launch(["rewrite", "--host", "none", cmd], { cwd: repoRoot, env });
      assert.equal(r.stdout, want, `${cmd}: ${r.stderr}`);
    }
  });

  test("leaves pipes into other programs and unrouted subcommands alone", async () => {
    for (const cmd of NOT_REWRITTEN) {
      const r = await launch(["rewrite", "--host", "none", cmd], { cwd: repoRoot, env });
      assert.equal(r.stdout, "", `${cmd}: ${r.stdout}`);
    }
  });
});

describe("the shape the user chose passes through", () => {
  for (const [name, argv] of [
    ["docker/medium-ps", ["docker", "ps", "--format", "{{.Names}}"]],
    ["docker/medium-ps", ["docker", "ps", "-aq"]],
    ["kubectl/medium-get-pods", ["kubectl", "get", "pods", "-o", "name"]],
    ["kubectl/medium-get-pods", ["kubectl", "get", "pods", "-ojsonpath={.items[*].metadata.name}"]],
    ["helm/medium-list", ["helm", "list", "-o", "json"]],
    ["gh/medium-pr-list", ["gh", "pr", "list", "--json", "number,title"]],
    ["terraform/medium-plan", ["terraform", "plan", "-json"]],
    ["docker/medium-build", ["docker", "build", "-q", "."]],
  ] as const) {
    test(argv.join(" "), async () => {
      const c = named(name);
      const r = await replay({ ...c, argv: [...argv] });
      assert.equal(r.stdout, stripVTControlCharacters(c.stdout));
      assert.equal(r.stderr, stripVTControlCharacters(c.stderr));
      assert.equal(r.status, c.exit);
    });
  }

  test("kubectl get -o wide is compacted like the plain table", async () => {
    const r = await played(named("kubectl/medium-get-pods-all-wide"));
    assert.match(r.stdout, /\(AGE left out \[rtk recall [0-9a-f]+\]\) \(NOMINATED NODE, READINESS GATES: <none> in every row\)/);
  });
});

describe("followed and interactive runs keep the terminal", () => {
  for (const [name, argv] of [
    ["docker/medium-logs", ["docker", "logs", "-f", "shop-api-1"]],
    ["gh/pr-checks-failing", ["gh", "pr", "checks", "1473", "--watch"]],
    ["terraform/medium-plan", ["terraform", "apply"]],
  ] as const) {
    test(argv.join(" "), async () => {
      const c = named(name);
      const r = await replay({ ...c, argv: [...argv] });
      assert.equal(r.stdout, c.stdout);
      assert.equal(r.status, c.exit);
    });
  }
});

describe("tables", () => {
  test("pods alike in every kept column are one line, with their count", async () => {
    const r = await played(named("kubectl/medium-get-pods"));
    const running = unbraced(r.stdout.split("\n").find((l) => l.startsWith("1/1  Running  0 ("))!);
    const n = Number(/\((\d+)\)/.exec(running)![1]);
    assert.equal(running.split(": ")[1]!.split(", ").length, n);
    const raw = named("kubectl/medium-get-pods")
      .stdout.split("\n")
      .filter((l) => /\s1\/1\s+Running\s+0\s/.test(l)).length;
    assert.equal(n, raw);
  });

  test("a table with no rows is printed as the tool printed it", async () => {
    const c = named("docker/medium-ps");
    const header = c.stdout.split("\n")[0]! + "\n";
    const dir = mkdtempSync(join(tmpdir(), "rtk-services-"));
    writeFileSync(join(dir, "stdout"), header);
    const r = await replay({ ...c, dir, stdout: header, stderr: "" });
    assert.equal(r.stdout, header);
  });

  test("a table past the list budget keeps its first rows and counts the rest", async () => {
    const c = named("kubectl/medium-get-pods-all-wide");
    const r = await replay(c, [], { RTK_CONFIG: writeConfig("[limits]\nlist_tokens = 200\n") });
    const m = /^… \+(\d+) more rows \[rtk recall [0-9a-f]+\]$/m.exec(r.stdout);
    assert.ok(m, r.stdout);
    const shown = r.stdout.split("\n").filter((l) => /: \S+ \S+$/.test(l) && !l.includes("left out")).length;
    assert.equal(shown + Number(m[1]), c.stdout.trimEnd().split("\n").length - 1);
  });
});

describe("SQL result tables", () => {
  test("a table past the list budget keeps its header, first and last rows, and counts the rest", async () => {
    const c = named("psql/medium-select");
    const r = await replay(c, [], { RTK_CONFIG: writeConfig("[limits]\nlist_tokens = 150\n") });
    const m = /^… \+(\d+) more rows \[rtk recall [0-9a-f]+\]$/m.exec(r.stdout);
    assert.ok(m, r.stdout);
    const lines = r.stdout.trimEnd().split("\n");
    assert.equal(lines[0], "id | customer | status | total | items | created_at");
    const shown = lines.filter((l) => /^\d+ \| /.test(l)).length;
    assert.equal(shown + Number(m[1]), 64);
    assert.match(lines.at(-2)!, /^64 \| /);
    assert.equal(lines.at(-1), "(64 rows)");
  });

  test("a cell that spans lines makes the output print as psql printed it", async () => {
    // Recorded from psql 15.18: a value holding a line break.
    const raw = " id |    note     | state \n----+-------------+-------\n  1 | first line +| ok\n    | second line | \n(1 row)\n\n";
    const dir = mkdtempSync(join(tmpdir(), "rtk-services-"));
    writeFileSync(join(dir, "stdout"), raw);
    const c = named("psql/medium-select");
    const r = await replay({ ...c, dir, stdout: raw, stderr: "" });
    assert.equal(r.stdout, raw);
  });

  for (const [name, argv] of [
    ["psql/medium-select", ["psql", "-X", "-At", "-c", "SELECT 1"]],
    ["psql/medium-select", ["psql", "-X", "--csv", "-c", "SELECT 1"]],
    ["psql/medium-select", ["psql", "-qx", "-c", "SELECT 1"]],
    ["mysql/medium-select", ["mysql", "-B", "-e", "SELECT 1"]],
    ["mysql/medium-select", ["mysql", "-psecret", "--vertical", "-e", "SELECT 1"]],
  ] as const) {
    test(`${argv.join(" ")} passes through`, async () => {
      const c = named(name);
      const r = await replay({ ...c, argv: [...argv] });
      assert.equal(r.stdout, c.stdout);
    });
  }

  test("a value after -c is not read as flags", async () => {
    const c = named("psql/medium-select");
    const r = await replay({ ...c, argv: ["psql", "-c", "-x"] });
    assert.notEqual(r.stdout, c.stdout);
  });

  // Against a live server only when one answers through the PG* variables (none in CI).
  const live = spawnSync("psql", ["-X", "-Atc", "SELECT 1"], { encoding: "utf8", timeout: 5000 });
  test("psql against a live server", { skip: live.stdout !== "1\n" && "no PostgreSQL server reachable" }, async () => {
    const sql = "SELECT n AS id, 'row ' || n AS label FROM generate_series(1, 12) AS n";
    const raw = spawnSync("psql", ["-X", "-c", sql], { encoding: "utf8" });
    const env = { PATH: `${join(repoRoot, "bin")}:${process.env["PATH"] ?? "/usr/bin:/bin"}`, RTK_NO_TRACK: "1" };
    const r = await launch(["psql", "-X", "-c", sql], { cwd: tmpdir(), env: { ...process.env, ...env } as Record<string, string> });
    assert.equal(r.status, 0, r.stderr);
    const rows = Array.from({ length: 12 }, (_, i) => `${i + 1} | row ${i + 1}`);
    assert.equal(r.stdout, ["id | label", ...rows, "(12 rows)", ""].join("\n") + "\n");
    assert.ok(r.stdout.length < raw.stdout.length);
  });
});

describe("aws", () => {
  test("a sync past the list budget names its first files and counts the rest", async () => {
    const c = named("aws/medium-s3-sync");
    const r = await replay(c, [], { RTK_CONFIG: writeConfig("[limits]\nlist_tokens = 100\n") });
    const line = r.stdout.split("\n").find((l) => l.startsWith("upload dist/ → s3://shop-web-prod/ (43): "))!;
    const m = /… \+(\d+) more files \[rtk recall [0-9a-f]+\]$/.exec(line);
    assert.ok(m, r.stdout);
    const shown = line
      .replace(/ … .*$/, "")
      .split(": ")[1]!
      .split(", ").length;
    assert.equal(shown + Number(m[1]), 43);
  });

  test("a listing past the list budget counts each folder's objects it does not show", async () => {
    const c = named("aws/medium-s3-ls-logs");
    const r = await replay(c, [], { RTK_CONFIG: writeConfig("[limits]\nlist_tokens = 150\n") });
    const lines = r.stdout.split("\n");
    const titled = lines.filter((l) => / \(\d+; [\d-]+\):$/.test(l)).reduce((n, l) => n + Number(/\((\d+);/.exec(l)![1]), 0);
    const shown = lines.filter((l) => /^ {2}\d\d:\d\d:\d\d \d+ /.test(l)).length;
    const hidden = lines.reduce((n, l) => n + Number(/^ {2}… \+(\d+) more objects? \[rtk recall [0-9a-f]+\]$/.exec(l)?.[1] ?? 0), 0);
    assert.ok(hidden > 0, r.stdout);
    assert.equal(shown + hidden, titled);
    assert.equal(titled + lines.filter((l) => /^\d{4}-/.test(l)).length, c.stdout.trimEnd().split("\n").length);
  });

  test("a line that is not part of a listing makes it print as the CLI printed it", async () => {
    const c = named("aws/s3-ls");
    const raw = c.stdout + "Unexpected line\n";
    const dir = mkdtempSync(join(tmpdir(), "rtk-services-"));
    writeFileSync(join(dir, "stdout"), raw);
    const r = await replay({ ...c, dir, stdout: raw, stderr: "" });
    assert.equal(r.stdout, raw);
  });

  test("JSON and text output print as the CLI printed them", async () => {
    for (const argv of [
      ["aws", "sts", "get-caller-identity", "--output", "text"],
      ["aws", "s3", "cp", "a", "s3://b/", "--output", "json"],
    ]) {
      const c = named("aws/sts-json");
      const r = await replay({ ...c, argv });
      assert.equal(r.stdout, c.stdout);
    }
  });
});

describe("az deployment create", () => {
  test("the deployment's JSON prints minified: the same value, every string and number as printed", async () => {
    const c = named("az/medium-deployment-group-create");
    const r = await played(c);
    assert.equal(r.stdout.split("\n").length, 2);
    assert.deepEqual(JSON.parse(r.stdout), JSON.parse(c.stdout));
    // Escapes, exponents and integers past 2^53 stay as written (a parse and a print would change them).
    const raw =
      '{\n  "name": "main",\n  "properties": {\n    "outputs": {\n      "note": { "type": "String", "value": "a \\"quoted\\" word,\\n and\\ta tab" },\n      "big": { "type": "Int", "value": 12345678901234567890 },\n      "ratio": { "type": "Object", "value": 1.50e3 }\n    },\n    "provisioningState": "Succeeded"\n  }\n}\n';
    const dir = mkdtempSync(join(tmpdir(), "rtk-services-"));
    writeFileSync(join(dir, "stdout"), raw);
    const m = await replay({ ...c, dir, stdout: raw, stderr: "" });
    assert.equal(
      m.stdout,
      '{"name":"main","properties":{"outputs":{"note":{"type":"String","value":"a \\"quoted\\" word,\\n and\\ta tab"},"big":{"type":"Int","value":12345678901234567890},"ratio":{"type":"Object","value":1.50e3}},"provisioningState":"Succeeded"}}\n',
    );
  });

  test("an output the user chose, or text that is not JSON, prints as the CLI printed it", async () => {
    const c = named("az/medium-deployment-group-create");
    for (const extra of [["-o", "json"], ["--query", "properties.outputs"], ["--output=yamlc"]]) {
      const r = await replay({ ...c, argv: [...c.argv, ...extra] });
      assert.equal(r.stdout, c.stdout, extra.join(" "));
    }
    const raw = "Resource and property changes are indicated with this symbol:\n  + Create\n";
    const dir = mkdtempSync(join(tmpdir(), "rtk-services-"));
    writeFileSync(join(dir, "stdout"), raw);
    const r = await replay({ ...c, dir, stdout: raw, stderr: "" });
    assert.equal(r.stdout, raw);
  });
});

describe("gh api: the JSON with only the whitespace between its tokens gone", () => {
  test("every string, number and key as printed; several documents one a line; what is not JSON is null", () => {
    const pretty = JSON.stringify({ name: "a  b\tc", n: 1.5, big: 12345678901234567890, esc: '\u00e9 \\" q', list: [1, { x: null }], empty: {} }, null, 2).replace("1.5", "1.50");
    const min = minifyJson(pretty + "\n")!;
    assert.equal(min, '{"name":"a  b\\tc","n":1.50,"big":12345678901234567000,"esc":"é \\\\\\" q","list":[1,{"x":null}],"empty":{}}\n');
    assert.deepEqual(JSON.parse(min), JSON.parse(pretty));
    assert.equal(minifyJson("[\n  1\n]\n[\n  2\n]\n"), "[1]\n[2]\n");
    assert.equal(minifyJson("1\n2\n"), "1\n2\n");
    for (const notJson of ["acme/app\n", "HTTP/2.0 200 OK\n\n{}", "", '{ "a": 1', "[1]]"]) assert.equal(minifyJson(notJson), null, notJson);
  });

  test("rtk gh api prints the minified answer; --jq's lines and gh's errors as printed", async () => {
    const root = mkdtempSync(join(tmpdir(), "rtk-gh-api-"));
    const body = JSON.stringify({ full_name: "acme/app", topics: ["a", "b"], description: "two  spaces" }, null, 2) + "\n";
    writeFileSync(join(root, "body.json"), body);
    const bin = join(root, "bin");
    mkdirSync(bin);
    // A stand-in for gh: the answer's body, or --jq's lines, or gh's error for another path.
    writeFileSync(
      join(bin, "gh"),
      `#!/bin/sh\ncase "$*" in\n  *--jq*) printf 'a\\nb\\n' ;;\n  "api repos/acme/app") cat '${join(root, "body.json")}' ;;\n  *) echo '{"message":"Not Found"}'; echo 'gh: Not Found (HTTP 404)' >&2; exit 1 ;;\nesac\n`,
    );
    chmodSync(join(bin, "gh"), 0o755);
    const env = { ...process.env, PATH: `${bin}:${process.env["PATH"]}`, XDG_DATA_HOME: join(root, "data"), RTK_NO_TRACK: "1" } as Record<string, string>;
    const run = (args: string[]) => launch(["gh", "api", ...args], { cwd: root, env });
    assert.equal((await run(["repos/acme/app"])).stdout, '{"full_name":"acme/app","topics":["a","b"],"description":"two  spaces"}\n');
    assert.equal((await run(["repos/acme/app", "--jq", ".topics[]"])).stdout, "a\nb\n");
    const missing = await run(["repos/acme/nothing"]);
    assert.equal(missing.status, 1);
    assert.equal(missing.stderr, "gh: Not Found (HTTP 404)\n");
  });
});

describe("docker run and exec: the container's output as it comes", () => {
  const input = (argv: string[]) => ({ argv, toolIndex: 0, subIndex: 1, route: allRoutes().find((r) => r.id === "docker.run")! });

  test("docker's pulling of the image is counted; the container's lines pass on their stream; a terminal or a detached run keeps rtk's stdio", () => {
    const emitted: string[] = [];
    const run = dockerRun.start(input(["docker", "run", "--rm", "busybox", "sh"]), {
      recall: { id: () => "abc1234" },
      emit: { out: (l) => emitted.push(`out ${l}`), err: (l) => emitted.push(`err ${l}`) },
    });
    const pull = [
      "Unable to find image 'busybox:latest' locally",
      "latest: Pulling from library/busybox",
      "9ad63333ebc9: Pulling fs layer",
      "9ad63333ebc9: Download complete",
      "9ad63333ebc9: Pull complete",
      "Digest: sha256:" + "a".repeat(64),
      "Status: Downloaded newer image for busybox:latest",
    ];
    for (const l of pull) run.line("err", l);
    assert.equal(run.passes!("err"), false, "stderr is read while docker pulls");
    assert.equal(run.passes!("out"), true, "stdout is only ever the container's");
    run.line("err", "the container's own error");
    assert.equal(run.passes!("err"), true, "once the container has started, its stderr passes as it comes");
    assert.deepEqual(emitted, ["err the container's own error"]);
    assert.equal(run.end(0)!.stderr, "… +7 more image pull lines [rtk recall abc1234]\n");
    for (const argv of [
      ["docker", "run", "-it", "ubuntu", "bash"],
      ["docker", "run", "--tty", "ubuntu"],
      ["docker", "exec", "-t", "app", "sh"],
      ["docker", "run", "-d", "nginx"],
      ["docker", "run", "-e", "A=1", "-d", "nginx"],
    ]) {
      assert.equal(dockerRun.inherits!(input(argv)), true, argv.join(" "));
    }
    for (const argv of [
      ["docker", "run", "--rm", "busybox", "ls", "-t"],
      ["docker", "run", "-e", "-t", "busybox"],
      ["docker", "exec", "app", "ls"],
    ]) {
      assert.equal(dockerRun.inherits!(input(argv)), false, argv.join(" "));
    }
  });

  test("rtk docker run: a line the container prints is there before the container ends, a prompt with no newline too", { timeout: 30_000 }, async () => {
    const root = mkdtempSync(join(tmpdir(), "rtk-docker-run-"));
    const bin = join(root, "bin");
    mkdirSync(bin);
    // A stand-in for docker: the pull, then a prompt with no newline, then a line, then a long wait.
    writeFileSync(
      join(bin, "docker"),
      "#!/bin/sh\necho \"Unable to find image 'x:latest' locally\" >&2\necho 'Status: Downloaded newer image for x:latest' >&2\nprintf 'name? '\nsleep 1\necho first\nexec sleep 30\n",
    );
    chmodSync(join(bin, "docker"), 0o755);
    const child = spawn(RTK_BIN, ["docker", "run", "x"], { cwd: root, env: { ...process.env, PATH: `${bin}:${process.env["PATH"]}`, XDG_DATA_HOME: join(root, "data"), RTK_NO_TRACK: "1" } });
    let out = "";
    let waiting: { what: string; resolve: () => void } | null = null;
    child.stdout.on("data", (b: Buffer) => {
      out += b.toString();
      if (waiting && out.includes(waiting.what)) waiting.resolve();
    });
    const seen = (what: string) => new Promise<void>((resolve) => (out.includes(what) ? resolve() : (waiting = { what, resolve })));
    await seen("name? ");
    await seen("first\n");
    assert.equal(out, "name? first\n");
    child.kill("SIGTERM");
    await new Promise((r) => child.on("close", r));
  });
});
