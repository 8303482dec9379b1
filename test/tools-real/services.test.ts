// Containers and GitHub: docker run and exec, gh api. gh talks to a local
// server standing in for GitHub's API (gh's own development host,
// github.localhost, reached through an HTTP proxy that is this server); docker
// runs against the machine's daemon, and without one its real error is the case.
import { spawnSync } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { after } from "node:test";
import { has, linesMatching, matrix, type Case, type Fact, type Raw } from "./harness.js";

const REPO = {
  id: 1296269,
  name: "app",
  full_name: "acme/app",
  private: false,
  owner: { login: "acme", id: 1, type: "Organization" },
  description: 'An app, with "quotes", a tab\there and ünïcödé',
  topics: ["cli", "tools"],
  stargazers_count: 80,
  license: null,
  default_branch: "main",
};
const NOT_FOUND = { message: "Not Found", documentation_url: "https://docs.github.com/rest/repos/repos#get-a-repository", status: "404" };

const server = createServer((req, res) => {
  const found = req.url === "http://api.github.localhost/repos/acme/app";
  res.statusCode = found ? 200 : 404;
  res.setHeader("content-type", "application/json; charset=utf-8");
  // GitHub's API answers with indented JSON.
  res.end(JSON.stringify(found ? REPO : NOT_FOUND, null, 2) + "\n");
});
await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
after(() => server.close());
const GH = {
  HTTP_PROXY: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
  GH_HOST: "github.localhost",
  GH_TOKEN: "matrix",
  GH_ENTERPRISE_TOKEN: "matrix",
  GH_PROMPT_DISABLED: "1",
  GH_NO_UPDATE_NOTIFIER: "1",
};

/** Every value of the JSON, and the errors: what `gh api` printed must parse to the same data. */
function jsonFacts(raw: Raw): Fact[] {
  const facts: Fact[] = linesMatching(/^gh: /, "error")(raw);
  let data: unknown;
  try {
    data = JSON.parse(raw.stdout);
  } catch {
    return facts;
  }
  facts.push({ kind: "json", text: "the same JSON", in: (t) => sameJson(t, data) });
  return facts;
}

function sameJson(text: string, data: unknown): boolean {
  const json = text.slice(0, text.lastIndexOf("}") + 1);
  try {
    return JSON.stringify(JSON.parse(json)) === JSON.stringify(data);
  } catch {
    return false;
  }
}

const gh: Case[] = [
  { tool: "gh api", kind: "passing", argv: ["gh", "api", "repos/acme/app"], env: GH, exit: 0, facts: jsonFacts, reshaped: [/^\s*[[\]{}"]/] },
  { tool: "gh api", kind: "failing", argv: ["gh", "api", "repos/acme/nothing"], env: GH, exit: "nonzero", facts: jsonFacts, reshaped: [/^\s*[[\]{}"]/] },
  {
    tool: "gh api",
    kind: "crash",
    argv: ["gh", "api", "repos/acme/app"],
    env: { GH_CONFIG_DIR: "/nonexistent/gh", GH_PROMPT_DISABLED: "1", GH_TOKEN: "", GH_ENTERPRISE_TOKEN: "", GH_HOST: "github.localhost" },
    exit: "nonzero",
    facts: linesMatching(/\S/, "error"),
  },
];

const daemon = has("docker") && spawnSync("docker", ["info"], { stdio: "ignore", timeout: 20_000 }).status === 0;
const live = (c: Case): Case => (daemon ? c : { ...c, skip: "no docker daemon running" });

const docker: Case[] = [
  live({ tool: "docker run", kind: "passing", argv: ["docker", "run", "--rm", "busybox", "sh", "-c", "echo out; echo err >&2"], exit: 0, facts: linesMatching(/^(out|err)$/) }),
  live({ tool: "docker run", kind: "failing", argv: ["docker", "run", "--rm", "busybox", "sh", "-c", "echo failing >&2; exit 3"], exit: "nonzero", facts: linesMatching(/\S/) }),
  // Without a daemon, docker's own error is what a user sees.
  { tool: "docker run", kind: "crash", argv: ["docker", "-H", "unix:///nonexistent/docker.sock", "run", "--rm", "busybox", "true"], exit: "nonzero", facts: linesMatching(/\S/, "error") },
  { tool: "docker exec", kind: "crash", argv: ["docker", "-H", "unix:///nonexistent/docker.sock", "exec", "app", "ls"], exit: "nonzero", facts: linesMatching(/\S/, "error") },
];

matrix("services", [...gh, ...docker]);
