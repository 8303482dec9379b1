// A collector for the tests: an HTTP server on 127.0.0.1 that takes OTLP/HTTP
// metrics, protobuf or JSON, decodes each request and keeps what it holds. The
// protobuf is read by a small decoder written from the field numbers of the
// public OTLP definitions (opentelemetry-proto: collector/metrics/v1,
// metrics/v1, common/v1, resource/v1). Its behaviour is set per request: answer
// 200, an error status, late, or close the connection after reading.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

export interface Point {
  metric: string;
  unit: string;
  kind: "sum" | "gauge" | "histogram";
  /** Sums: 1 delta, 2 cumulative. */
  temporality: number;
  monotonic: boolean;
  attributes: Record<string, string | number | boolean>;
  start: bigint;
  time: bigint;
  /** A sum's value, or a histogram's sum. */
  value: number;
  /** A histogram's count and bucket counts. */
  count?: number;
  buckets?: number[];
  bounds?: number[];
}

export interface Received {
  resource: Record<string, string | number | boolean>;
  scope: string;
  points: Point[];
  contentType: string;
}

export type Behaviour = "ok" | "500" | "slow" | "close" | "ok-then-close";

// ---- protobuf wire format ----------------------------------------------------------

class Reader {
  pos = 0;
  constructor(readonly buf: Uint8Array) {}
  get done(): boolean {
    return this.pos >= this.buf.length;
  }
  varint(): bigint {
    let result = 0n;
    let shift = 0n;
    for (;;) {
      const b = this.buf[this.pos++]!;
      result |= BigInt(b & 0x7f) << shift;
      if (!(b & 0x80)) return result;
      shift += 7n;
    }
  }
  fixed64(): bigint {
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getBigUint64(0, true);
    this.pos += 8;
    return v;
  }
  double(): number {
    const v = new DataView(this.buf.buffer, this.buf.byteOffset + this.pos, 8).getFloat64(0, true);
    this.pos += 8;
    return v;
  }
  bytes(): Uint8Array {
    const n = Number(this.varint());
    const v = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return v;
  }
  /** Each field as [number, wire type]; the callback reads the value or returns false to have it skipped. */
  fields(on: (field: number, wire: number) => boolean): void {
    while (!this.done) {
      const tag = Number(this.varint());
      const field = tag >>> 3;
      const wire = tag & 7;
      if (on(field, wire)) continue;
      if (wire === 0) this.varint();
      else if (wire === 1) this.pos += 8;
      else if (wire === 2) this.bytes();
      else if (wire === 5) this.pos += 4;
      else throw new Error(`wire type ${wire}`);
    }
  }
}

const text = (b: Uint8Array) => Buffer.from(b).toString("utf8");

/** AnyValue: 1 string, 2 bool, 3 int, 4 double. */
function anyValue(b: Uint8Array): string | number | boolean {
  const r = new Reader(b);
  let v: string | number | boolean = "";
  r.fields((f, w) => {
    if (f === 1 && w === 2) v = text(r.bytes());
    else if (f === 2 && w === 0) v = r.varint() !== 0n;
    else if (f === 3 && w === 0) v = Number(BigInt.asIntN(64, r.varint()));
    else if (f === 4 && w === 1) v = r.double();
    else return false;
    return true;
  });
  return v;
}

/** KeyValue: 1 key, 2 value (AnyValue). */
function keyValue(b: Uint8Array): [string, string | number | boolean] {
  const r = new Reader(b);
  let key = "";
  let value: string | number | boolean = "";
  r.fields((f, w) => {
    if (f === 1 && w === 2) key = text(r.bytes());
    else if (f === 2 && w === 2) value = anyValue(r.bytes());
    else return false;
    return true;
  });
  return [key, value];
}

/** NumberDataPoint: 7 attributes, 2 start (fixed64), 3 time (fixed64), 4 as_double, 6 as_int (sfixed64). */
function numberPoint(b: Uint8Array): Pick<Point, "attributes" | "start" | "time" | "value"> {
  const r = new Reader(b);
  const p = { attributes: {} as Point["attributes"], start: 0n, time: 0n, value: 0 };
  r.fields((f, w) => {
    if (f === 7 && w === 2) {
      const [k, v] = keyValue(r.bytes());
      p.attributes[k] = v;
    } else if (f === 2 && w === 1) p.start = r.fixed64();
    else if (f === 3 && w === 1) p.time = r.fixed64();
    else if (f === 4 && w === 1) p.value = r.double();
    else if (f === 6 && w === 1) p.value = Number(BigInt.asIntN(64, r.fixed64()));
    else return false;
    return true;
  });
  return p;
}

/** HistogramDataPoint: 9 attributes, 2 start, 3 time, 4 count (fixed64), 5 sum (double), 6 bucket_counts (packed fixed64), 7 explicit_bounds (packed double). */
function histogramPoint(b: Uint8Array): Pick<Point, "attributes" | "start" | "time" | "value" | "count" | "buckets" | "bounds"> {
  const r = new Reader(b);
  const p = { attributes: {} as Point["attributes"], start: 0n, time: 0n, value: 0, count: 0, buckets: [] as number[], bounds: [] as number[] };
  r.fields((f, w) => {
    if (f === 9 && w === 2) {
      const [k, v] = keyValue(r.bytes());
      p.attributes[k] = v;
    } else if (f === 2 && w === 1) p.start = r.fixed64();
    else if (f === 3 && w === 1) p.time = r.fixed64();
    else if (f === 4 && w === 1) p.count = Number(r.fixed64());
    else if (f === 5 && w === 1) p.value = r.double();
    else if (f === 6 && w === 2) {
      const packed = new Reader(r.bytes());
      while (!packed.done) p.buckets.push(Number(packed.fixed64()));
    } else if (f === 7 && w === 2) {
      const packed = new Reader(r.bytes());
      while (!packed.done) p.bounds.push(packed.double());
    } else return false;
    return true;
  });
  return p;
}

/** Sum: 1 data_points, 2 aggregation_temporality, 3 is_monotonic. Histogram: 1 data_points, 2 aggregation_temporality. */
function pointsOf(b: Uint8Array, kind: Point["kind"], base: { metric: string; unit: string }): Point[] {
  const r = new Reader(b);
  const raw: Uint8Array[] = [];
  let temporality = 0;
  let monotonic = false;
  r.fields((f, w) => {
    if (f === 1 && w === 2) raw.push(r.bytes());
    else if (f === 2 && w === 0) temporality = Number(r.varint());
    else if (f === 3 && w === 0) monotonic = r.varint() !== 0n;
    else return false;
    return true;
  });
  return raw.map((d) => ({ ...base, kind, temporality, monotonic, ...(kind === "histogram" ? histogramPoint(d) : numberPoint(d)) }));
}

/** Metric: 1 name, 2 description, 3 unit, 5 gauge, 7 sum, 9 histogram. */
function metric(b: Uint8Array): Point[] {
  const r = new Reader(b);
  let name = "";
  let unit = "";
  const bodies: [Point["kind"], Uint8Array][] = [];
  r.fields((f, w) => {
    if (w !== 2) return false;
    if (f === 1) name = text(r.bytes());
    else if (f === 3) unit = text(r.bytes());
    else if (f === 5) bodies.push(["gauge", r.bytes()]);
    else if (f === 7) bodies.push(["sum", r.bytes()]);
    else if (f === 9) bodies.push(["histogram", r.bytes()]);
    else return false;
    return true;
  });
  return bodies.flatMap(([kind, body]) => pointsOf(body, kind, { metric: name, unit }));
}

/** ExportMetricsServiceRequest: 1 resource_metrics. ResourceMetrics: 1 resource, 2 scope_metrics. Resource: 1 attributes. ScopeMetrics: 1 scope (1 name), 2 metrics. */
export function decodeProtobuf(body: Uint8Array): Received[] {
  const out: Received[] = [];
  const req = new Reader(body);
  req.fields((f, w) => {
    if (f !== 1 || w !== 2) return false;
    const rm = new Reader(req.bytes());
    const resource: Received["resource"] = {};
    const scopes: { scope: string; points: Point[] }[] = [];
    rm.fields((g, w2) => {
      if (w2 !== 2) return false;
      if (g === 1) {
        const res = new Reader(rm.bytes());
        res.fields((h, w3) => {
          if (h !== 1 || w3 !== 2) return false;
          const [k, v] = keyValue(res.bytes());
          resource[k] = v;
          return true;
        });
      } else if (g === 2) {
        const sm = new Reader(rm.bytes());
        const s = { scope: "", points: [] as Point[] };
        sm.fields((h, w3) => {
          if (w3 !== 2) return false;
          if (h === 1) {
            const sc = new Reader(sm.bytes());
            sc.fields((i, w4) => (i === 1 && w4 === 2 ? ((s.scope = text(sc.bytes())), true) : false));
          } else if (h === 2) s.points.push(...metric(sm.bytes()));
          else return false;
          return true;
        });
        scopes.push(s);
      } else return false;
      return true;
    });
    for (const s of scopes) out.push({ resource, scope: s.scope, points: s.points, contentType: "application/x-protobuf" });
    return true;
  });
  return out;
}

// ---- OTLP/JSON (the same messages, lowerCamelCase keys, 64-bit integers as strings) -------

type J = Record<string, unknown>;
const attrsOf = (list: unknown): Point["attributes"] =>
  Object.fromEntries(
    ((list as J[] | undefined) ?? []).map((kv) => {
      const v = kv["value"] as J;
      const value = "stringValue" in v ? String(v["stringValue"]) : "intValue" in v ? Number(v["intValue"]) : "doubleValue" in v ? Number(v["doubleValue"]) : Boolean(v["boolValue"]);
      return [String(kv["key"]), value];
    }),
  );

export function decodeJson(body: string): Received[] {
  const req = JSON.parse(body) as J;
  const out: Received[] = [];
  for (const rm of (req["resourceMetrics"] as J[]) ?? []) {
    const resource = attrsOf((rm["resource"] as J | undefined)?.["attributes"]);
    for (const sm of (rm["scopeMetrics"] as J[]) ?? []) {
      const points: Point[] = [];
      for (const m of (sm["metrics"] as J[]) ?? []) {
        const base = { metric: String(m["name"]), unit: String(m["unit"] ?? "") };
        for (const kind of ["sum", "gauge", "histogram"] as const) {
          const body = m[kind] as J | undefined;
          if (!body) continue;
          for (const d of (body["dataPoints"] as J[]) ?? [])
            points.push({
              ...base,
              kind,
              temporality: Number(body["aggregationTemporality"] ?? 0),
              monotonic: Boolean(body["isMonotonic"]),
              attributes: attrsOf(d["attributes"]),
              start: BigInt(String(d["startTimeUnixNano"] ?? 0)),
              time: BigInt(String(d["timeUnixNano"] ?? 0)),
              value: kind === "histogram" ? Number(d["sum"] ?? 0) : Number(d["asInt"] ?? d["asDouble"] ?? 0),
              ...(kind === "histogram"
                ? { count: Number(d["count"]), buckets: ((d["bucketCounts"] as unknown[]) ?? []).map(Number), bounds: ((d["explicitBounds"] as unknown[]) ?? []).map(Number) }
                : {}),
            });
        }
      }
      out.push({ resource, scope: String((sm["scope"] as J | undefined)?.["name"] ?? ""), points, contentType: "application/json" });
    }
  }
  return out;
}

// ---- the server ------------------------------------------------------------------------

export interface Collector {
  url: string;
  /** Requests answered 2xx, decoded. */
  accepted: Received[];
  /** Every request that arrived, whatever the answer (decoded). */
  arrived: Received[];
  /** How the next requests are answered (the last entry stays). */
  behave(...next: Behaviour[]): void;
  /** Delay of a "slow" answer, ms. */
  slowMs: number;
  headers: Record<string, string | string[] | undefined>[];
  close(): Promise<void>;
}

export async function collector(): Promise<Collector> {
  let plan: Behaviour[] = ["ok"];
  const c: Omit<Collector, "url" | "close"> = {
    accepted: [],
    arrived: [],
    slowMs: 15_000,
    headers: [],
    behave: (...next) => void (plan = next.length ? next : ["ok"]),
  };
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on("data", (b: Buffer) => chunks.push(b));
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const type = String(req.headers["content-type"] ?? "");
      const decoded = type.includes("json") ? decodeJson(body.toString("utf8")) : decodeProtobuf(body);
      c.arrived.push(...decoded);
      c.headers.push(req.headers);
      const how = plan.length > 1 ? plan.shift()! : plan[0]!;
      if (how === "500") {
        res.writeHead(500, { "content-type": "text/plain" }).end("no");
      } else if (how === "slow") {
        const t = setTimeout(() => res.writeHead(200).end(), c.slowMs);
        res.on("close", () => clearTimeout(t));
      } else if (how === "close") {
        req.socket.destroy();
      } else if (how === "ok-then-close") {
        // Taken by the collector, but the answer never reaches rtk: the ambiguous case.
        c.accepted.push(...decoded);
        req.socket.destroy();
      } else {
        c.accepted.push(...decoded);
        res.writeHead(200, { "content-type": type.includes("json") ? "application/json" : "application/x-protobuf" }).end(type.includes("json") ? "{}" : Buffer.alloc(0));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address() as AddressInfo;
  return {
    ...c,
    get accepted() {
      return c.accepted;
    },
    get arrived() {
      return c.arrived;
    },
    get headers() {
      return c.headers;
    },
    get slowMs() {
      return c.slowMs;
    },
    set slowMs(v: number) {
      c.slowMs = v;
    },
    behave: c.behave,
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

/** The sum of a metric's points (values of sums, sums of histograms), optionally of those whose attributes match. */
export function total(received: readonly Received[], name: string, where: Record<string, string> = {}): number {
  let n = 0;
  for (const r of received) for (const p of r.points) if (p.metric === name && Object.entries(where).every(([k, v]) => p.attributes[k] === v)) n += p.value;
  return n;
}
