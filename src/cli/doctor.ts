// `rtk doctor [--json]`.
import { tryLoadConfig } from "../config/load.js";
import { doctor } from "../hosts/doctor.js";
import { readState } from "../telemetry/state.js";
import { shownUrl, telemetrySettings } from "../telemetry/settings.js";
import { VERSION } from "../version.js";
import { parseOptions } from "./args.js";
import { usageError } from "./help.js";

export function doctorCli(args: string[]): number {
  const opts = parseOptions("doctor", args, { boolean: ["json"] });
  if (typeof opts === "number") return opts;
  if (opts._.length) return usageError("doctor", `unexpected \`${opts._[0]}\``);
  const r = doctor({ env: process.env, cwd: process.cwd() });
  const telemetry = telemetryReport(process.env, process.cwd());
  if (opts["json"]) {
    process.stdout.write(JSON.stringify({ ...r, telemetry }, null, 2) + "\n");
    return r.ok ? 0 : 1;
  }
  const lines = [`rtk ${r.version}`];
  if (!r.hosts.length) lines.push("no host has rtk installed (rtk init --agent <host>)");
  for (const h of r.hosts) {
    lines.push(`${h.title} (${h.scope}): ${h.file}`);
    for (const c of h.checks) lines.push(`  ${c.warning ? "warn" : c.ok ? "ok  " : "FAIL"} ${c.name}: ${c.detail}${c.fix ? `\n       ${c.warning ? "what to do" : "fix"}: ${c.fix}` : ""}`);
  }
  lines.push(telemetryLine(telemetry));
  process.stdout.write(lines.join("\n") + "\n");
  return r.ok ? 0 : 1;
}

export interface TelemetryReport {
  enabled: boolean;
  /** Where batches go (no credentials, no query), and how. */
  url: string | null;
  protocol: string | null;
  /** Why nothing can be sent although it is on. */
  problem: string | null;
  /** The OTEL_* variables read (names only). */
  fromEnv: string[];
  lastSuccess: string | null;
  lastBatchRecords: number;
  sentRecords: number;
  failures: number;
  lastError: string | null;
}

/** Whether export is on, where it sends, and when the last batch went (from the export's state file: no database is opened). */
export function telemetryReport(env: NodeJS.ProcessEnv, cwd: string): TelemetryReport {
  const config = tryLoadConfig(env, cwd);
  const s = config ? telemetrySettings(config, env, VERSION) : null;
  const st = readState(env);
  const on = s?.enabled ?? false;
  return {
    enabled: on,
    url: on ? shownUrl(s!.url) : null,
    protocol: on ? s!.protocol : null,
    problem: s?.problem ?? null,
    fromEnv: s?.fromEnv ?? [],
    lastSuccess: st.lastSuccess ? new Date(st.lastSuccess).toISOString() : null,
    lastBatchRecords: st.lastBatchRecords,
    sentRecords: st.sentRecords,
    failures: st.failures,
    lastError: st.lastError,
  };
}

function telemetryLine(t: TelemetryReport): string {
  if (!t.enabled) return "telemetry: off (nothing leaves this machine; RTK_TELEMETRY=1 or telemetry.enabled = true sends rtk's savings to an OpenTelemetry collector)";
  const lines = [`telemetry: on, to ${t.url} (${t.protocol})`];
  if (t.problem) lines.push(`  warn nothing is sent: ${t.problem}`);
  lines.push(t.lastSuccess ? `  last batch: ${t.lastSuccess} (${t.lastBatchRecords} records; ${t.sentRecords} sent in all)` : "  last batch: none sent yet");
  if (t.failures)
    lines.push(`  warn the last ${t.failures === 1 ? "export" : `${t.failures} exports`} failed: ${t.lastError ?? "?"}; the records wait, and the next try comes later each time (at most an hour)`);
  return lines.join("\n");
}
