// The facts of a service tool's raw output, read here and not by the filters:
// every table row's identity with its status cells, every pull request's,
// issue's and run's number, title and state, every check's name and state,
// every resource action of a plan with its address, the plan's summary, every
// HTTP status, every stderr line. `lostFacts` says which a compact output lacks.
import { stripVTControlCharacters } from "node:util";
import type { ToolCase } from "../../support/replay.js";

/** One fact: `all` must appear together on one line of the compact output (`where` says what it is). */
export interface Fact {
  where: string;
  all: string[];
}

/** The column starts of a padded header: where a word follows the line's start, a tab, or two spaces or more. */
function starts(header: string): number[] {
  const out: number[] = [];
  for (let i = 0; i < header.length; i++) {
    if (header[i] === " " || header[i] === "\t") continue;
    if (i === 0 || header[i - 1] === "\t" || (header[i - 1] === " " && header[i - 2] === " ")) out.push(i);
  }
  return out;
}

/** A padded table (or several, apart by blank lines): each row as column name → cell. */
export function tableRows(text: string): Record<string, string>[] {
  const rows: Record<string, string>[] = [];
  for (const block of text.split(/\n\s*\n/)) {
    const lines = block.split("\n").filter((l) => l.trim() !== "");
    if (lines.length < 2) continue;
    const header = lines[0]!;
    const tabbed = header.includes("\t");
    const names = tabbed ? header.split("\t").map((c) => c.trim()) : header.trim().split(/ {2,}/);
    const at = starts(header);
    for (const line of lines.slice(1)) {
      const cells = tabbed ? line.split("\t").map((c) => c.trim()) : at.map((s, i) => line.slice(s, at[i + 1] ?? line.length).trim());
      rows.push(Object.fromEntries(names.map((n, i) => [n, cells[i] ?? ""])));
    }
  }
  return rows;
}

/** Columns that are status, not identity: kept with the row's identity. */
const TABLE_FACTS: Record<string, { id: string[]; with: string[] }> = {
  docker: { id: ["NAMES", "NAME", "REPOSITORY"], with: ["IMAGE", "STATUS", "PORTS", "TAG", "IMAGE ID", "SIZE", "SERVICE"] },
  podman: { id: ["NAMES"], with: ["IMAGE", "STATUS", "PORTS"] },
  kubectl: { id: ["NAME"], with: ["NAMESPACE", "READY", "STATUS", "RESTARTS", "UP-TO-DATE", "AVAILABLE", "TYPE", "CLUSTER-IP", "EXTERNAL-IP", "PORT(S)", "DESIRED", "CURRENT", "IP", "NODE"] },
  helm: { id: ["NAME"], with: ["NAMESPACE", "REVISION", "STATUS", "CHART", "APP VERSION"] },
  gcloud: { id: ["NAME"], with: ["ZONE", "MACHINE_TYPE", "PREEMPTIBLE", "INTERNAL_IP", "EXTERNAL_IP", "STATUS"] },
};

/** gh's tab-separated rows: which fields name the row and state it. */
function ghFacts(c: ToolCase): Fact[] {
  const kind = `${c.argv[1]} ${c.argv[2]}`;
  const facts: Fact[] = [];
  for (const line of c.stdout.split("\n").filter(Boolean)) {
    const f = line.split("\t");
    if (kind === "pr list") facts.push({ where: `pr #${f[0]}`, all: [f[0]!, f[1]!] }, { where: `pr #${f[0]} state`, all: [f[3]!] });
    else if (kind === "issue list") facts.push({ where: `issue #${f[0]}`, all: [f[0]!, f[2]!] }, { where: `issue #${f[0]} state`, all: [f[1]!] });
    else if (kind === "run list") facts.push({ where: `run ${f[6]}`, all: [f[6]!, f[2]!, f[3]!] }, { where: `run ${f[6]} state`, all: [f[0]!, f[1]!] });
    else if (kind === "pr checks") facts.push({ where: `check ${f[0]}`, all: [f[0]!, ...(f[1] === "fail" ? [f[3]!] : [])] }, { where: `check ${f[0]} state`, all: [f[1]!] });
  }
  return facts;
}

/** A plan's and an apply's facts: each resource's action symbol with its address, completions, the summary lines, errors and warnings. */
function terraformFacts(stdout: string): Fact[] {
  const facts: Fact[] = [];
  const lines = stdout.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    const h = /^\s*# (\S+) (will be|must be|is tainted)/.exec(l);
    if (h) {
      // The symbol is the resource line's, after the comment lines.
      let j = i + 1;
      while (/^\s*# /.test(lines[j] ?? "")) j++;
      const sym = /^\s*(\S+) (?:resource|data) /.exec(lines[j] ?? "")?.[1];
      if (sym) facts.push({ where: "resource action", all: [`${sym} ${h[1]}`] });
    }
    const done = /^(\S+): (Creation|Destruction|Modifications|Read) complete/.exec(l);
    if (done) facts.push({ where: "apply", all: [done[1]!, `${done[2]} complete`] });
    if (/^(?:Plan: |Apply complete!|No changes\.|Terraform has been successfully initialized|.*(?:Error|Warning): )/.test(l)) facts.push({ where: "summary", all: [l.trim()] });
  }
  return facts;
}

/** A log line without its leading timestamp (after `docker compose`'s service column, when there is one). */
export const unstamped = (line: string) => line.replace(/^([\w.-]+\s+\| )?\d{4}-\d\d-\d\dT[\d:.]+Z /, "$1");

/** A log's facts: every error and warning line (the text after its timestamp), and its last three lines. */
function logFacts(c: ToolCase): Fact[] {
  const facts: Fact[] = [];
  for (const text of [c.stdout, c.stderr]) {
    const lines = text.split("\n");
    if (lines[lines.length - 1] === "") lines.pop();
    for (const l of lines) if (/\b(?:ERROR|WARN|error|Error|fatal|panic|[A-Z]\w*Error)\b/.test(l)) facts.push({ where: "severe line", all: [unstamped(l)] });
    for (const l of lines.slice(-3)) if (l.trim()) facts.push({ where: "last lines", all: [unstamped(l)] });
  }
  return facts;
}

/** How many lines of the raw output a compact log stands for: a `(×N)` line N, a marker its count, any other line one. */
export function linesStoodFor(compact: string): number {
  const lines = compact.split("\n");
  if (lines[lines.length - 1] === "") lines.pop();
  let n = 0;
  for (const l of lines) {
    const more = /^… \+(\d+) more lines? \[rtk recall/.exec(l);
    const times = /\(×(\d+)(?:, last [^)]*)?\)$/.exec(l);
    n += more ? Number(more[1]) : times ? Number(times[1]) : 1;
  }
  return n;
}

/** A build's facts: each step with how it ended, warning and error lines, the image written and named, BuildKit's error report; a pull's verdict lines. */
function buildFacts(c: ToolCase): Fact[] {
  const facts: Fact[] = [];
  const text = c.stdout + c.stderr;
  const titles = new Map<string, string>();
  let report = false;
  for (const l of text.split("\n")) {
    if (l === "------") report = true;
    if (report) {
      if (l.trim()) facts.push({ where: "error report", all: [l] });
      continue;
    }
    const m = /^#(\d+) (.*)$/.exec(l);
    if (m && !titles.has(m[1]!)) titles.set(m[1]!, m[2]!);
    else if (m && /^(DONE|CACHED|ERROR)/.test(m[2]!) && !titles.get(m[1]!)!.startsWith("[internal]")) facts.push({ where: `step ${m[1]}`, all: [`${titles.get(m[1]!)}: ${m[2]}`] });
    else if (m && /\b(warn|error)\b|^(writing image|naming to)/i.test(m[2]!)) facts.push({ where: `step ${m[1]} output`, all: [m[2]!.replace(/^[\d.]+ /, "")] });
    if (/^(Digest|Status): |^docker\.io\//.test(l)) facts.push({ where: "pull", all: [l] });
  }
  return facts;
}

/** kubectl's actions: each resource with its outcome, a rollout's last waiting line and its verdict, every stderr line. */
function actionFacts(c: ToolCase): Fact[] {
  const facts: Fact[] = [];
  const lines = c.stdout.split("\n").filter(Boolean);
  for (const l of lines) {
    const m = /^(\S+\/\S+) (\w+)$/.exec(l);
    if (m) facts.push({ where: "resource", all: [m[1]!, m[2]!] });
    else if (!l.startsWith("Waiting for ")) facts.push({ where: "line", all: [l] });
  }
  const waiting = lines.filter((l) => l.startsWith("Waiting for "));
  if (waiting.length) facts.push({ where: "last waiting line", all: [waiting[waiting.length - 1]!] });
  for (const l of c.stderr.split("\n").filter(Boolean)) facts.push({ where: "stderr", all: [l] });
  return facts;
}

/**
 * A SQL client's facts: every row's cells together (psql's aligned rows and
 * mysql's boxed ones, split at their bars), every other line (a command tag, a
 * row count, a footer) and every stderr line.
 */
function sqlFacts(c: ToolCase): Fact[] {
  const facts: Fact[] = [];
  const psql = c.argv[0] === "psql";
  for (const l of c.stdout.split("\n")) {
    if (!l.trim() || /^[-+]+$/.test(l)) continue;
    const row = psql ? / \| /.test(l) || /^ \S/.test(l) : l.startsWith("|");
    if (row) {
      const cells = (psql ? l.split("|") : l.split("|").slice(1, -1)).map((x) => x.trim()).filter(Boolean);
      facts.push({ where: "row", all: cells });
    } else facts.push({ where: "line", all: [l.trim()] });
  }
  for (const l of c.stderr.split("\n").filter((x) => x.trim())) facts.push({ where: "stderr", all: [l] });
  return facts;
}

/**
 * kubectl describe's facts: every field with its value, every line that goes
 * on with a value (a label, a command word), every table row's cells; but for
 * what the filter says it leaves out (container and image IDs, the
 * last-applied-configuration annotation, the service account token volume).
 */
function describeFacts(c: ToolCase): Fact[] {
  const facts: Fact[] = [];
  let skipUnder = -1;
  for (const l of c.stdout.split("\n")) {
    const indent = l.length - l.trimStart().length;
    if (skipUnder >= 0 && l.trim() && indent > skipUnder) continue;
    skipUnder = -1;
    if (!l.trim() || /^\s*-+(\s+-+)*\s*$/.test(l)) continue;
    if (/^\s*kube-api-access-\w+:$/.test(l)) {
      skipUnder = indent;
      continue;
    }
    if (/kubectl\.kubernetes\.io\/last-applied-configuration:$/.test(l)) {
      skipUnder = indent;
      continue;
    }
    if (/^\s*\{"apiVersion"|serviceaccount from kube-api-access-|^\s*(?:Container|Image) ID:/.test(l)) continue;
    const f = /^\s*([^\s:](?:[^: ]| (?! ))*):(?:\s+(\S.*?))?\s*$/.exec(l);
    if (f) facts.push({ where: "field", all: f[2] ? [`${f[1]}:`, f[2]] : [`${f[1]}:`] });
    else facts.push({ where: "row", all: l.trim().split(/ {2,}/) });
  }
  for (const l of c.stderr.split("\n").filter((x) => x.trim())) facts.push({ where: "stderr", all: [l] });
  return facts;
}

/** A patch's facts: every file it touches, every hunk's line numbers, every added and removed line. */
function patchFacts(c: ToolCase): Fact[] {
  const facts: Fact[] = [];
  for (const l of c.stdout.split("\n")) {
    const file = /^diff --git a\/(\S+) b\/(\S+)$/.exec(l);
    if (file) facts.push({ where: "file", all: [file[2]!] });
    const hunk = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(l);
    if (hunk) facts.push({ where: "hunk", all: [hunk[0]] });
    if (/^[+-](?![+-]{2} )/.test(l) && l.trim().length > 1) facts.push({ where: "changed line", all: [l] });
  }
  return facts;
}

/**
 * The AWS CLI's facts: every cell of a table's rows together and every title;
 * every transfer's kind with the object's key (the part after the bucket);
 * any other output line whole; every stderr line.
 */
function awsFacts(c: ToolCase): Fact[] {
  const facts: Fact[] = [];
  for (const raw of c.stdout.split("\n")) {
    const l = raw.slice(raw.lastIndexOf("\r") + 1);
    if (!l.trim() || /^[-+|]+$/.test(l) || /^Completed .* remaining$/.test(l)) continue;
    const t = /^(upload|download|copy|move): \S+ to s3:\/\/[^/]+\/(\S+)$/.exec(l) ?? /^(delete): (\S+)$/.exec(l);
    if (t) facts.push({ where: "transfer", all: [t[1]!, t[2]!] });
    else if (l.startsWith("|"))
      facts.push({
        where: "row",
        all: l
          .split("|")
          .map((x) => x.trim())
          .filter(Boolean),
      });
    else facts.push({ where: "line", all: [l] });
  }
  for (const l of c.stderr.split("\n").filter((x) => x.trim())) facts.push({ where: "stderr", all: [l] });
  return facts;
}

/**
 * `aws s3 ls`'s facts: every prefix; every object's date, time and size with
 * its key, whole on its line or, for a folder of two or more objects, as the
 * folder (its title's) and the name below it; every bucket line, the summary
 * lines, every stderr line.
 */
function awsLsFacts(c: ToolCase): Fact[] {
  const facts: Fact[] = [];
  const objects: { date: string; time: string; size: string; key: string; dir: string }[] = [];
  for (const l of c.stdout.split("\n")) {
    const o = /^(\S+) (\S+) +(\d+|[\d.]+ [A-Za-z]+) (.+)$/.exec(l);
    const p = /^ +PRE (.+)$/.exec(l);
    if (o) objects.push({ date: o[1]!, time: o[2]!, size: o[3]!, key: o[4]!, dir: o[4]!.slice(0, o[4]!.lastIndexOf("/") + 1) });
    else if (p) facts.push({ where: "prefix", all: [p[1]!] });
    else if (l.trim()) facts.push({ where: "line", all: [l.trim()] });
  }
  const inDir = (dir: string) => objects.filter((o) => o.dir === dir).length;
  for (const o of objects) {
    const key = inDir(o.dir) > 1 ? [o.dir, o.key.slice(o.dir.length)].filter(Boolean) : [o.key];
    facts.push({ where: `object ${o.key}`, all: [...key, o.date, o.time, o.size] });
  }
  for (const l of c.stderr.split("\n").filter((x) => x.trim())) facts.push({ where: "stderr", all: [l] });
  return facts;
}

/**
 * A gcloud deploy's or build's facts: each stage of the progress tracker with
 * how it ended; every other line whole (the service, revision and URL, the
 * Dockerfile steps and what they print, the image, digest and verdict, the
 * build's row, every error) but for the per-layer pull and push lines, the
 * intermediate containers, gsutil's copy meter, the build-context upload, the
 * polling note and rule lines, which are progress.
 */
function gcloudProgressFacts(c: ToolCase): Fact[] {
  const facts: Fact[] = [];
  const progress =
    /^(?:[0-9a-f]{12}: (?:Pulling fs layer|Waiting|Verifying Checksum|Download complete|Pull complete|Preparing|Pushed|Layer already exists)| ---> |Removing intermediate container |Sending build context |[-\\|/] \[\d+ files\]|Waiting for build to complete|-{20,})/;
  for (const [stream, text] of [
    ["stdout", c.stdout],
    ["stderr", c.stderr],
  ] as const) {
    for (const l of text.split("\n")) {
      if (!l.trim() || progress.test(l)) continue;
      const staged = /^(.+?)\.{4,}(done|failed)?$/.exec(l);
      if (staged) facts.push({ where: `${stream} stage`, all: [staged[1]!, ...(staged[2] ? [staged[2]] : [])] });
      else facts.push({ where: stream, all: [l.replace(/^-+ (.+?) -+$/, "$1").trim()] });
    }
  }
  return facts;
}

/**
 * A deployment's facts, read from its JSON: the provisioning state, every
 * output's name and value, every resource id it lists, the error when there
 * is one, each as JSON text (a string with its quotes); every stderr line.
 */
function azDeploymentFacts(c: ToolCase): Fact[] {
  const facts: Fact[] = [];
  if (c.stdout.trim()) {
    const d = JSON.parse(c.stdout) as { id: string; properties: { provisioningState: string; outputs?: Record<string, { value: unknown }>; outputResources?: { id: string }[]; error: unknown } };
    const p = d.properties;
    facts.push({ where: "deployment", all: [JSON.stringify(d.id), JSON.stringify(p.provisioningState)] });
    for (const [name, o] of Object.entries(p.outputs ?? {})) facts.push({ where: `output ${name}`, all: [JSON.stringify(name), JSON.stringify(o.value)] });
    for (const r of p.outputResources ?? []) facts.push({ where: "resource", all: [JSON.stringify(r.id)] });
    if (p.error) facts.push({ where: "error", all: [JSON.stringify(p.error)] });
  }
  for (const l of c.stderr.split("\n").filter((x) => x.trim())) facts.push({ where: "stderr", all: [l] });
  return facts;
}

/** A run's log: every step's job and name, every line after its timestamp that is not blank (error lines, the verdict). */
function runLogFacts(c: ToolCase): Fact[] {
  const facts: Fact[] = [];
  const seen = new Set<string>();
  for (const l of stripVTControlCharacters(c.stdout).split("\n").filter(Boolean)) {
    const [job, step, rest] = l.split("\t");
    if (!seen.has(`${job}\t${step}`)) facts.push({ where: "step", all: [`${job} / ${step}`] });
    seen.add(`${job}\t${step}`);
    const text = rest!.replace(/^\S+Z ?/, "");
    if (text.trim()) facts.push({ where: "line", all: [text.trim()] });
  }
  return facts;
}

/** A release's facts: every field and NOTES line whole, every resource row's name with its status cells (read as kubectl's tables are). */
function releaseFacts(c: ToolCase): Fact[] {
  const facts: Fact[] = [];
  const [before, after] = c.stdout.split("RESOURCES:\n");
  const resources = after?.split(/^(?=[A-Z][A-Z ]+:)/m)[0] ?? "";
  const rest = after ? after.slice(resources.length) : "";
  for (const l of (before + rest).split("\n").filter((x) => x.trim())) facts.push({ where: "line", all: [l.trim()] });
  for (const block of resources.split(/^==> .*\n/m)) {
    for (const row of tableRows(block)) {
      const with_ = TABLE_FACTS["kubectl"]!.with.filter((k) => row[k] !== undefined && row[k] !== "" && row[k] !== "<none>").map((k) => row[k]!);
      facts.push({ where: `resource ${row["NAME"]}`, all: [row["NAME"]!, ...with_] });
    }
  }
  for (const l of resources.split("\n").filter((x) => x.startsWith("==> "))) facts.push({ where: "kind", all: [l] });
  for (const l of c.stderr.split("\n").filter((x) => x.trim())) facts.push({ where: "stderr", all: [l] });
  return facts;
}

/** az's table: every row's cells (cut at the dash rule's columns) together; any other output's lines whole; every stderr line. */
function azFacts(c: ToolCase): Fact[] {
  const lines = c.stdout.split("\n").filter((l) => l.trim());
  const facts: Fact[] = [];
  if (lines.length > 1 && /^[- ]+$/.test(lines[1]!)) {
    const starts = [...lines[1]!.matchAll(/-+/g)].map((m) => m.index!);
    for (const l of lines.slice(2)) facts.push({ where: "row", all: starts.map((s, i) => l.slice(s, starts[i + 1] ?? l.length).trim()).filter(Boolean) });
  } else for (const l of lines) facts.push({ where: "line", all: [l.trim()] });
  for (const l of c.stderr.split("\n").filter((x) => x.trim())) facts.push({ where: "stderr", all: [l] });
  return facts;
}

export function factsOf(c: ToolCase, filter: string | null = null): Fact[] {
  const tool = c.argv[0]!;
  if (filter === "table.az") return azFacts(c);
  if (filter === "helm.release") return releaseFacts(c);
  if (filter === "gh.log") return runLogFacts(c);
  if (filter === "aws") return awsFacts(c);
  if (filter === "aws.ls") return awsLsFacts(c);
  if (filter === "az.deployment") return azDeploymentFacts(c);
  if (filter === "gcloud.run.deploy" || filter === "gcloud.builds.submit") return gcloudProgressFacts(c);
  if (filter === "git.diff") return patchFacts(c);
  if (filter === "kubectl.describe") return describeFacts(c);
  if (filter === "sql.psql" || filter === "sql.mysql") return sqlFacts(c);
  // A view: every field with a value, every body line.
  if (filter === "gh.view")
    return c.stdout
      .split("\n")
      .filter((l) => l.trim() && !/^[\w-]+:\t?$/.test(l))
      .map((l) => ({ where: "view", all: [l] }));
  if (filter === "kubectl.action") return actionFacts(c);
  if (filter === "docker.build") return buildFacts(c);
  if (filter === "logs") return logFacts(c);
  if (tool === "terraform" || tool === "tofu") {
    const strip = (t: string) => stripVTControlCharacters(t).replace(/[ \t]+$/gm, "");
    return [
      ...terraformFacts(strip(c.stdout)),
      ...strip(c.stderr)
        .split("\n")
        .filter((l) => l.trim())
        .map((l) => ({ where: "stderr", all: [l] })),
    ];
  }
  const facts: Fact[] = [];
  const spec = TABLE_FACTS[tool];
  // gcloud's output the user shaped (JSON, YAML): every line whole.
  if (tool === "gcloud" && !/^[A-Z][A-Z_]* {2}/.test(c.stdout)) for (const l of c.stdout.split("\n").filter((x) => x.trim())) facts.push({ where: "line", all: [l.trim()] });
  else if (spec) {
    for (const row of tableRows(c.stdout)) {
      const id = spec.id.map((k) => row[k]).find((v) => v !== undefined)!;
      const cells = spec.with.filter((k) => row[k] !== undefined && row[k] !== "" && k !== "PORTS").map((k) => (k.endsWith(" ID") ? row[k]!.slice(0, 12) : row[k]!));
      // Each published port; an IPv6 twin of a 0.0.0.0 one is said once for the whole table.
      const ports = (row["PORTS"] ?? "").split(", ").filter(Boolean);
      const twin = (p: string) => /^(?:\[::\]|::):/.test(p) && ports.includes(`0.0.0.0:${p.replace(/^(?:\[::\]|::):/, "")}`);
      if (ports.some(twin)) facts.push({ where: "IPv6 twins", all: ["[::]"] });
      facts.push({ where: `row ${id}`, all: [id, ...cells, ...ports.filter((p) => !twin(p))] });
    }
  }
  if (tool === "gh") facts.push(...ghFacts(c));
  for (const line of c.stderr.split("\n").filter((l) => l.trim())) facts.push({ where: "stderr", all: [line] });
  return facts;
}

/** Whether `value` stands on its own in `line` (not as part of a longer name). */
function standsIn(line: string, value: string): boolean {
  let at = line.indexOf(value);
  while (at >= 0) {
    const before = line[at - 1];
    const after = line[at + value.length];
    if ((before === undefined || /[\s,(#:[]/.test(before) || /^\W/.test(value)) && (after === undefined || /[\s,):\]]/.test(after) || /\W$/.test(value))) return true;
    at = line.indexOf(value, at + 1);
  }
  return false;
}

/** A line with its `prefix{a,b}` names written out: `prefixa, prefixb`. */
export const unbraced = (line: string) =>
  line.replace(/([^\s,:{}]*)\{([^{}\s,]+(?:,[^{}\s,]+)+)\}/g, (_, prefix: string, names: string) =>
    names
      .split(",")
      .map((n) => prefix + n)
      .join(", "),
  );

/** The facts no line of `compact` holds whole; a fact whose values span a group's title and a row counts when both lines are in one group. */
export function lostFacts(compact: string, facts: readonly Fact[]): string[] {
  // Names written `prefix{a,b}` stand for prefixa, prefixb.
  const lines = compact.split("\n").map(unbraced);
  // A row under a group title (`OPEN (40):`) carries the title's words too.
  const withTitles: string[] = [];
  let title = "";
  for (const l of lines) {
    if (/^\S.*\(\d+[;)].*:/.test(l)) title = l;
    withTitles.push(`${l}\t${title}`);
  }
  return facts.filter((f) => !withTitles.some((l) => f.all.every((v) => standsIn(l, v)))).map((f) => `${f.where}: ${f.all.join(" | ")}`);
}

/** The facts as the least text that states them, one per line (the facts-alone bound of the bench). */
export function factsText(facts: readonly Fact[]): string {
  return facts.map((f) => f.all.join(" ")).join("\n");
}
