// Where and how rtk's records are exported, from the config's [telemetry] and the
// standard OTEL_* variables agents already set for their own telemetry. Nothing is
// sent unless the switch is on (telemetry.enabled or RTK_TELEMETRY=1): OTEL_*
// variables alone never turn it on. No I/O here: the run path reads this too.
import type { EffectiveConfig } from "../config/load.js";
import type { Env } from "../config/paths.js";

export type Protocol = "http/protobuf" | "http/json";

export interface TelemetrySettings {
  /** The switch, and whether the rest makes an export possible. */
  enabled: boolean;
  /** Why nothing is sent although the switch is on (grpc asked for, OTEL_METRICS_EXPORTER=none …), else null. */
  problem: string | null;
  /** The metrics URL batches are posted to. */
  url: string;
  protocol: Protocol;
  /** From OTEL_EXPORTER_OTLP_HEADERS / _METRICS_HEADERS; values are never printed. */
  headers: Record<string, string>;
  timeoutMs: number;
  intervalMs: number;
  batchRecords: number;
  project: "hash" | "path" | "none";
  /** Resource attributes: OTEL_RESOURCE_ATTRIBUTES, then service.*, user.name from the config. */
  resource: Record<string, string>;
  /** The OTEL_* names that were read, for `rtk doctor`. */
  fromEnv: string[];
}

export const DEFAULT_ENDPOINT = "http://localhost:4318";

export function telemetrySettings(config: EffectiveConfig, env: Env, version: string): TelemetrySettings {
  const fromEnv: string[] = [];
  const read = (...names: string[]): string | undefined => {
    for (const n of names) {
      const v = env[n]?.trim();
      if (v) {
        fromEnv.push(n);
        return v;
      }
    }
    return undefined;
  };
  const endpoint = config.telemetry.endpoint;
  const signalUrl = endpoint ? undefined : read("OTEL_EXPORTER_OTLP_METRICS_ENDPOINT");
  const base = endpoint || (signalUrl ? undefined : read("OTEL_EXPORTER_OTLP_ENDPOINT")) || DEFAULT_ENDPOINT;
  const url = signalUrl ?? metricsUrl(base);
  const protoSetting = config.telemetry.protocol;
  const proto = protoSetting || read("OTEL_EXPORTER_OTLP_METRICS_PROTOCOL", "OTEL_EXPORTER_OTLP_PROTOCOL") || "http/protobuf";
  let problem: string | null = null;
  if (proto !== "http/protobuf" && proto !== "http/json") problem = `OTLP protocol ${JSON.stringify(proto)} is not supported by rtk: set OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf (or http/json)`;
  const exporters = read("OTEL_METRICS_EXPORTER");
  if (exporters && !exporters.split(",").some((e) => e.trim() === "otlp")) problem = `OTEL_METRICS_EXPORTER=${exporters} names no otlp exporter`;
  if (read("OTEL_SDK_DISABLED")?.toLowerCase() === "true") problem = "OTEL_SDK_DISABLED=true";
  if (!/^https?:\/\/[^/]/i.test(url)) problem = `the collector's URL ${JSON.stringify(url)} is not an http(s) URL`;
  const timeoutEnv = Number(read("OTEL_EXPORTER_OTLP_METRICS_TIMEOUT", "OTEL_EXPORTER_OTLP_TIMEOUT"));
  const timeoutSet = config.settings.telemetry.timeout_ms.source.kind !== "default";
  const timeoutMs = !timeoutSet && Number.isSafeInteger(timeoutEnv) && timeoutEnv > 0 ? timeoutEnv : config.telemetry.timeout_ms;
  const headers = { ...keyValues(read("OTEL_EXPORTER_OTLP_HEADERS") ?? ""), ...keyValues(read("OTEL_EXPORTER_OTLP_METRICS_HEADERS") ?? "") };
  const resource: Record<string, string> = { ...keyValues(read("OTEL_RESOURCE_ATTRIBUTES") ?? "") };
  resource["service.name"] = read("OTEL_SERVICE_NAME") ?? resource["service.name"] ?? "rtk";
  resource["service.version"] = version;
  const user = config.telemetry.user;
  if (user) resource["user.name"] = user;
  const enabled = config.telemetry.enabled;
  return {
    enabled,
    problem: enabled ? problem : null,
    url,
    protocol: proto === "http/json" ? "http/json" : "http/protobuf",
    headers,
    timeoutMs,
    intervalMs: config.telemetry.interval_seconds * 1000,
    batchRecords: config.telemetry.batch_records,
    project: config.telemetry.project,
    resource,
    fromEnv: [...new Set(fromEnv)],
  };
}

/** Whether a run should think about exporting at all: the switch only (the rest is the export's business). */
export function telemetryOn(config: EffectiveConfig): boolean {
  return config.telemetry.enabled;
}

/** A base endpoint as OTLP/HTTP's metrics URL: `/v1/metrics` after its path. */
export function metricsUrl(base: string): string {
  try {
    const u = new URL(base);
    const path = u.pathname.replace(/\/+$/, "");
    u.pathname = path.endsWith("/v1/metrics") ? path : `${path}/v1/metrics`;
    return u.toString();
  } catch {
    return base;
  }
}

/** `k=v,k2=v2` as OTEL_*_HEADERS and OTEL_RESOURCE_ATTRIBUTES write them (values percent-encoded). */
export function keyValues(s: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const part of s.split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) continue;
    const k = part.slice(0, eq).trim();
    let v = part.slice(eq + 1).trim();
    try {
      v = decodeURIComponent(v);
    } catch {
      // kept as written
    }
    if (k) out[k] = v;
  }
  return out;
}

/** The URL without its user, password and query (what `rtk doctor` prints). */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return url.replace(/[?#].*$/, "");
  }
}
