// The OTLP export (its own bundle, dist/rtk-otel.cjs, loaded by `rtk gain
// --export otlp` only): batches of the store's records, each made into delta
// metrics by the OpenTelemetry SDK and posted to the collector. The store is
// held only to fix a batch and to move the cursor, never while a collector is
// waited for, so a slow one keeps no report out. One export at a time (a lock
// folder); a failed one moves the next background start back (state.ts).
import { join } from "node:path";
import { tryLockDir } from "../fs/lock-dir.js";
import type { Attributes as OtelAttributes, Counter, Histogram, UpDownCounter } from "@opentelemetry/api";
import { AggregationTemporalityPreference } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as JsonExporter } from "@opentelemetry/exporter-metrics-otlp-http";
import { OTLPMetricExporter as ProtoExporter } from "@opentelemetry/exporter-metrics-otlp-proto";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { AggregationTemporality, MeterProvider, MetricReader, type PushMetricExporter, type ResourceMetrics } from "@opentelemetry/sdk-metrics";
import type { Env } from "../config/paths.js";
import type { Store } from "../accounting/store.js";
import { acknowledge, backlog, fixBatch, instanceId, projectNamer, readBatch, type Batch } from "./batch.js";
import { METRICS, SCOPE, type MetricKey } from "./metrics.js";
import type { TelemetrySettings } from "./settings.js";
import { backoffMs, ensureDir, readState, setNextExport, telemetryDir, writeState } from "./state.js";

export interface ExportOptions {
  env: Env;
  settings: TelemetrySettings;
  version: string;
  /** Opens the store; with `ingest`, the spool is read into it first. */
  open(ingest: boolean): Store;
  /** Started by a run: at most `maxBatches` batches, nothing printed. */
  background: boolean;
  maxBatches?: number;
}

export interface ExportResult {
  /** "busy": another export holds the lock. */
  status: "done" | "failed" | "busy";
  batches: number;
  records: number;
  /** Records still waiting (the pending batch included). */
  left: number;
  error: string | null;
}

/** An export older than this left its lock behind (killed): no export holds it so long. */
const STALE_LOCK_MS = 10 * 60_000;

export async function exportOtlp(o: ExportOptions): Promise<ExportResult> {
  const unlock = lock(o.env);
  if (!unlock) return { status: "busy", batches: 0, records: 0, left: 0, error: null };
  const result: ExportResult = { status: "done", batches: 0, records: 0, left: 0, error: null };
  const state = readState(o.env);
  try {
    const maxBatches = o.maxBatches ?? (o.background ? 100 : Infinity);
    let first = true;
    while (result.batches < maxBatches) {
      const store = o.open(first);
      first = false;
      let batch: Batch | null = null;
      let made: ReturnType<typeof collect> | null = null;
      try {
        batch = fixBatch(store.db, o.settings.batchRecords);
        if (batch) made = collect(store, batch, o, instanceId(store.db));
      } finally {
        // The collector is never waited for with the store held: the batch's rows are read by now.
        store.close();
      }
      if (!batch || !made) break;
      const records = made.records;
      const sent = made.metrics.then((m) => send(o.settings, m));
      state.lastAttempt = Date.now();
      const error = await sent;
      if (error !== null) {
        result.status = "failed";
        result.error = error;
        state.failures++;
        state.lastError = error;
        break;
      }
      const after = o.open(false);
      try {
        acknowledge(after.db, batch);
      } finally {
        after.close();
      }
      result.batches++;
      result.records += records;
      state.lastSuccess = Date.now();
      state.lastBatchRecords = records;
      state.sentRecords += records;
      state.failures = 0;
      state.lastError = null;
    }
    const store = o.open(false);
    try {
      const left = backlog(store.db);
      result.left = left.runs + left.hooks;
    } finally {
      store.close();
    }
  } catch (e) {
    result.status = "failed";
    result.error = e instanceof Error ? e.message : String(e);
    state.failures++;
    state.lastError = result.error;
  } finally {
    writeState(o.env, state);
    // A failure waits longer before the next background try; success, one interval.
    try {
      setNextExport(o.env, Date.now() + backoffMs(o.settings.intervalMs, state.failures));
    } catch {
      // the next run tries again
    }
    unlock();
  }
  return result;
}

/** The lock folder, or null while another export holds it. */
function lock(env: Env): (() => void) | null {
  ensureDir(env);
  return tryLockDir(join(telemetryDir(env), "export.lock"), STALE_LOCK_MS);
}

/** A reader that hands the SDK's aggregation to us instead of exporting on a timer. */
class BatchReader extends MetricReader {
  constructor() {
    super({ aggregationTemporalitySelector: () => AggregationTemporality.DELTA });
  }
  protected async onForceFlush(): Promise<void> {}
  protected async onShutdown(): Promise<void> {}
}

type Instruments = { [K in MetricKey]: Counter | UpDownCounter | Histogram };

/** The batch's records as the SDK's metrics, with the batch's own time window on every point. */
function collect(store: Store, b: Batch, o: ExportOptions, instance: string): { records: number; metrics: Promise<ResourceMetrics> } {
  const reader = new BatchReader();
  const resource = resourceFromAttributes({ ...o.settings.resource, "service.instance.id": instance });
  const provider = new MeterProvider({ resource, readers: [reader] });
  const meter = provider.getMeter(SCOPE, o.version);
  const instruments = {} as Instruments;
  for (const [key, m] of Object.entries(METRICS) as [MetricKey, (typeof METRICS)[MetricKey]][]) {
    const opts = { unit: m.unit, description: m.description };
    instruments[key] =
      m.instrument === "counter"
        ? meter.createCounter(m.name, opts)
        : m.instrument === "updowncounter"
          ? meter.createUpDownCounter(m.name, opts)
          : meter.createHistogram(m.name, { ...opts, advice: { explicitBucketBoundaries: [...("buckets" in m ? m.buckets : [])] } });
  }
  const records = readBatch(store.db, b, projectNamer(o.settings.project), (metric, value, attrs) => {
    const i = instruments[metric];
    if ("record" in i) i.record(value, attrs as OtelAttributes);
    else i.add(value, attrs as OtelAttributes);
  });
  const metrics = reader.collect().then(async ({ resourceMetrics }) => {
    await provider.shutdown();
    // The same window however often the batch is sent: a resend is the same delta, not a new one.
    const start = hrTime(b.start);
    const end = hrTime(b.end);
    for (const scope of resourceMetrics.scopeMetrics)
      for (const metric of scope.metrics)
        for (const p of metric.dataPoints as { startTime: [number, number]; endTime: [number, number] }[]) {
          p.startTime = start;
          p.endTime = end;
        }
    return resourceMetrics;
  });
  return { records, metrics };
}

function hrTime(ms: number): [number, number] {
  return [Math.floor(ms / 1000), (ms % 1000) * 1_000_000];
}

/** Posts the metrics; null when the collector answered 2xx, else why not. */
async function send(s: TelemetrySettings, metrics: ResourceMetrics): Promise<string | null> {
  if (!metrics.scopeMetrics.some((sm) => sm.metrics.length)) return null;
  const config = { url: s.url, headers: s.headers, timeoutMillis: s.timeoutMs, temporalityPreference: AggregationTemporalityPreference.DELTA };
  const exporter: PushMetricExporter = s.protocol === "http/json" ? new JsonExporter(config) : new ProtoExporter(config);
  try {
    return await new Promise<string | null>((resolve) => {
      // The exporter's own timeout ends a slow send; this one only guards against a callback never made.
      const guard = setTimeout(() => resolve(`no answer from ${s.url} within ${s.timeoutMs} ms`), s.timeoutMs + 5000);
      exporter.export(metrics, (r) => {
        clearTimeout(guard);
        resolve(r.code === 0 ? null : (r.error?.message ?? "export failed").replace(/\s+/g, " ").slice(0, 300));
      });
    });
  } finally {
    // Shutdown waits for nothing more to be sent: the one request is answered or abandoned.
    void exporter.shutdown().catch(() => {});
  }
}
