// `rtk gain --html`: the report's figures as one self-contained page. No script,
// no font, no image from anywhere: the charts are inline SVG drawn here, and the
// page's Content-Security-Policy forbids loading anything, so it opens offline
// and the same everywhere. Every number comes from report.ts (the JSON printer
// reads the same functions); every string from the records is escaped.
import type { HistoryRow, HookCoverage, PeriodRow, RouteRow, SessionContextCost, Totals } from "./report.js";

export interface PageData {
  totals: Totals;
  routes: RouteRow[];
  periods: PeriodRow[];
  period: "daily" | "weekly" | "monthly";
  hooks: HookCoverage;
  /** What telling the agent about rtk at each session start cost. */
  context: SessionContextCost;
  /** The latest runs, newest first. */
  history: HistoryRow[];
  /** What the page covers, in words (`project /w/a, since 2026-12-01`), or "". */
  scope: string;
  generated: number;
}

/** The most routes drawn one by one; the rest are summed as "other". */
export const TOP_ROUTES = 12;

/** Text as HTML (and as an attribute value). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);
}

/** 1,234,567: by hand, as toLocaleString's first call loads the locale data (tens of ms). */
const int = (n: number) => String(Math.round(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const pct = (n: number) => `${n.toFixed(1)}%`;

/** `1 run`, `3 runs`. */
const runs = (n: number) => `${int(n)} ${n === 1 ? "run" : "runs"}`;

interface Bar {
  label: string;
  value: number;
  /** The shown value when not the number itself. */
  note?: string;
}

/** The routes as drawn: the top ones by tokens saved, the rest summed as one "other" row. */
export function topRoutes(routes: readonly RouteRow[], top = TOP_ROUTES): Bar[] {
  const bars = routes.slice(0, top).map((r) => ({ label: r.route, value: r.savedTokens, note: `${int(r.savedTokens)} (${runs(r.runs)})` }));
  const rest = routes.slice(top);
  if (rest.length) {
    const saved = rest.reduce((s, r) => s + r.savedTokens, 0);
    const n = rest.reduce((s, r) => s + r.runs, 0);
    bars.push({ label: `other (${rest.length} ${rest.length === 1 ? "route" : "routes"})`, value: saved, note: `${int(saved)} (${runs(n)})` });
  }
  return bars;
}

/** Horizontal bars, one a row, scaled to the largest magnitude; a negative one is drawn leftwards from the axis. */
function hbars(id: string, title: string, bars: readonly Bar[], empty: string): string {
  if (!bars.length) return chart(id, title, `<p class="empty">${escapeHtml(empty)}</p>`);
  const row = 22;
  const labelW = 200;
  const valueW = 170;
  const plotW = 420;
  const posMax = Math.max(0, ...bars.map((b) => b.value));
  const negMax = Math.max(0, ...bars.map((b) => -b.value));
  const scale = plotW / Math.max(1, posMax + negMax);
  const axis = labelW + Math.round(negMax * scale);
  const h = bars.length * row + 4;
  const parts = bars.map((b, i) => {
    const y = i * row + 2;
    const w = Math.max(1, Math.round(Math.abs(b.value) * scale));
    const x = b.value < 0 ? axis - w : axis;
    const label = b.label.length > 28 ? b.label.slice(0, 27) + "…" : b.label;
    return (
      `<g class="bar" data-label="${escapeHtml(b.label)}" data-value="${b.value}">` +
      `<title>${escapeHtml(b.label)}: ${escapeHtml(b.note ?? int(b.value))}</title>` +
      `<text x="${labelW - 8}" y="${y + 15}" text-anchor="end">${escapeHtml(label)}</text>` +
      `<rect class="${b.value < 0 ? "neg" : "pos"}" x="${x}" y="${y + 3}" width="${b.value === 0 ? 0 : w}" height="${row - 6}"/>` +
      `<text x="${axis + (b.value < 0 ? 0 : w) + 6}" y="${y + 15}">${escapeHtml(b.note ?? int(b.value))}</text>` +
      `</g>`
    );
  });
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${escapeHtml(title)}" width="${labelW + plotW + valueW}" height="${h}" viewBox="0 0 ${labelW + plotW + valueW} ${h}"><line class="axis" x1="${axis}" y1="0" x2="${axis}" y2="${h}"/>${parts.join("")}</svg>`;
  return chart(id, title, svg);
}

/** Vertical bars over time, oldest left; negative savings hang below the zero line. */
function timeBars(id: string, title: string, periods: readonly PeriodRow[]): string {
  if (!periods.length) return chart(id, title, `<p class="empty">no runs in this period</p>`);
  const plotH = 200;
  const left = 70;
  const w = Math.max(4, Math.min(28, Math.floor(760 / periods.length)));
  const gap = w > 6 ? 2 : 1;
  const values = periods.map((p) => p.savedTokens);
  const top = Math.max(0, ...values);
  const bottom = Math.max(0, ...values.map((v) => -v));
  const span = Math.max(1, top + bottom);
  const zero = 10 + Math.round((top / span) * plotH);
  // Room under the axis for a period's label (`2026-12-03`), however few the bars.
  const labelW = 80;
  const plotW = periods.length * w;
  const width = left + Math.max(plotW, labelW) + 10;
  const height = plotH + 50;
  const bars = periods.map((p, i) => {
    const hgt = p.savedTokens === 0 ? 0 : Math.max(1, Math.round((Math.abs(p.savedTokens) / span) * plotH));
    const y = p.savedTokens < 0 ? zero : zero - hgt;
    return (
      `<rect class="${p.savedTokens < 0 ? "neg" : "pos"}" data-label="${escapeHtml(p.period)}" data-value="${p.savedTokens}" x="${left + i * w}" y="${y}" width="${w - gap}" height="${hgt}">` +
      `<title>${escapeHtml(p.period)}: ${int(p.savedTokens)} tokens saved, ${runs(p.runs)}</title></rect>`
    );
  });
  // The first and last period under the axis (the last where the two do not meet); a label for each would not fit.
  const first = periods[0]!.period;
  const last = periods[periods.length - 1]!.period;
  const labels =
    `<text x="${left}" y="${plotH + 35}">${escapeHtml(first)}</text>` +
    (periods.length > 1 && plotW >= 2 * labelW ? `<text x="${left + plotW - gap}" y="${plotH + 35}" text-anchor="end">${escapeHtml(last)}</text>` : "") +
    `<text x="${left - 6}" y="14" text-anchor="end">${int(top)}</text>` +
    `<text x="${left - 6}" y="${zero + 4}" text-anchor="end">0</text>` +
    (bottom ? `<text x="${left - 6}" y="${10 + plotH}" text-anchor="end">${int(-bottom)}</text>` : "");
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="${escapeHtml(title)}" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}"><line class="axis" x1="${left}" y1="${zero}" x2="${width - 10}" y2="${zero}"/>${bars.join("")}${labels}</svg>`;
  return chart(id, title, svg);
}

function chart(id: string, title: string, body: string): string {
  return `<section class="chart" id="${id}"><h2>${escapeHtml(title)}</h2>${body}</section>`;
}

function cell(n: number, text = int(n)): string {
  return `<td data-value="${n}">${text}</td>`;
}

const TOTAL_FIELDS: readonly (readonly [keyof Totals, string])[] = [
  ["runs", "runs"],
  ["rawTokens", "raw tokens"],
  ["outTokens", "printed"],
  ["savedTokens", "saved"],
  ["savedPct", "saved %"],
  ["omitted", "omitted"],
  ["recalls", "recalls"],
  ["fellBack", "raw fallbacks"],
];

function totalCells(t: Totals): string {
  return TOTAL_FIELDS.map(([k]) => (k === "savedPct" ? cell(t[k], pct(t[k])) : cell(t[k]))).join("");
}

const STYLE = `
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI",sans-serif;margin:24px auto;max-width:1000px;padding:0 16px;color:#1d2330;background:#fff}
h1{font-size:22px;margin:0 0 4px}h2{font-size:16px;margin:28px 0 8px}
.scope{color:#5a6372;margin:0 0 16px}
.tiles{display:flex;flex-wrap:wrap;gap:12px}
.tile{border:1px solid #d8dde6;border-radius:6px;padding:8px 14px;min-width:120px}
.tile b{display:block;font-size:20px}.tile span{color:#5a6372;font-size:12px}
table{border-collapse:collapse;margin-top:8px}th,td{padding:3px 10px;text-align:right;border-bottom:1px solid #eceff4}
th:first-child,td:first-child{text-align:left}th{font-weight:600;color:#3a4352}
svg text{font:12px system-ui,sans-serif;fill:#3a4352}
rect.pos{fill:#2f8f5b}rect.neg{fill:#c2413b}.axis{stroke:#8a93a3;stroke-width:1}
#hooks rect.pos{fill:#3a6fc4}#recalls rect.pos{fill:#b7791f}
td.cmd{text-align:left;font-family:ui-monospace,monospace;font-size:12px;white-space:pre-wrap;word-break:break-all}
.empty{color:#5a6372;font-style:italic}
`;

/** The whole page. */
export function renderPage(d: PageData): string {
  const t = d.totals;
  const c = d.context;
  const when = new Date(d.generated).toISOString().slice(0, 16).replace("T", " ");
  const tiles = [
    ["commands", int(t.runs), "runs through rtk"],
    ["tokens saved", int(t.savedTokens), `${pct(t.savedPct)} of ${int(t.rawTokens)} raw`],
    ["printed", int(t.outTokens), "tokens rtk printed"],
    ["bytes printed", int(t.outBytes), `of ${int(t.rawBytes)} bytes the tools printed`],
    ["recalls", int(t.recalls), "omissions that cost a second call"],
    ["hook coverage", d.hooks.decisions ? pct((d.hooks.rewritten / d.hooks.decisions) * 100) : "–", `${int(d.hooks.rewritten)} of ${int(d.hooks.decisions)} commands rewritten`],
    // What the agent was told about rtk is a cost of the savings (as in `rtk gain`).
    ...(c.sessions
      ? [
          [
            "saved net of the session context",
            int(t.savedTokens - c.tokens),
            `session context: ${int(c.sessions)} session${c.sessions === 1 ? "" : "s"} × ${int(c.tokensPerSession)} tokens = ${int(c.tokens)}`,
          ],
        ]
      : []),
  ]
    .map(([name, value, note]) => `<div class="tile"><span>${escapeHtml(name!)}</span><b>${escapeHtml(value!)}</b><span>${escapeHtml(note!)}</span></div>`)
    .join("");
  const periodName = d.period === "weekly" ? "week" : d.period === "monthly" ? "month" : "day";
  const hookBars: Bar[] = d.hooks.decisions ? [{ label: "rewritten", value: d.hooks.rewritten }, ...d.hooks.keptByReason.map((k) => ({ label: `kept: ${k.reason}`, value: k.decisions }))] : [];
  const recallBars: Bar[] = d.routes.filter((r) => r.recalls > 0).map((r) => ({ label: r.route, value: r.recalls, note: `${int(r.recalls)} of ${runs(r.runs)}` }));
  recallBars.sort((a, b) => b.value - a.value || a.label.localeCompare(b.label));
  const routeRows = d.routes.map((r) => `<tr data-route="${escapeHtml(r.route)}"><td>${escapeHtml(r.route)}</td>${totalCells(r)}</tr>`).join("");
  const latest = d.history
    .map(
      (h) =>
        `<tr><td>${escapeHtml(new Date(h.time).toISOString().slice(0, 19).replace("T", " "))}</td><td>${escapeHtml(h.route)}</td>${cell(h.exitCode, String(h.exitCode))}${cell(h.rawTokens)}${cell(h.outTokens)}${h.fellBack ? `<td data-value="0">raw</td>` : cell(h.savedTokens)}<td class="cmd">${escapeHtml(h.command)}</td></tr>`,
    )
    .join("");
  const head = TOTAL_FIELDS.map(([, h]) => `<th>${h}</th>`).join("");
  const body =
    t.runs || t.recalls || d.hooks.decisions || c.sessions
      ? [
          `<table id="totals"><tr><th></th>${head}</tr><tr><td>all routes</td>${totalCells(t)}</tr></table>`,
          timeBars("over-time", `Tokens saved per ${periodName}`, d.periods),
          hbars("by-route", `Tokens saved by route (top ${TOP_ROUTES}, the rest as other)`, topRoutes(d.routes), "no runs recorded"),
          hbars("hooks", "Hook coverage: commands the hooks saw, rewritten or kept raw (by reason)", hookBars, "no hook decisions recorded"),
          hbars("recalls", "Recalls by route (an omission that cost the agent a second call)", recallBars, "no recalls: nothing rtk left out was asked for again"),
          `<h2>Routes</h2><table id="routes"><tr><th>route</th>${head}</tr>${routeRows}</table>`,
          `<h2>Latest runs</h2><table id="latest"><tr><th>time (UTC)</th><th>route</th><th>exit</th><th>raw</th><th>printed</th><th>saved</th><th>command</th></tr>${latest}</table>`,
        ].join("\n")
      : `<p class="empty">no runs recorded yet: <code>rtk &lt;tool&gt; …</code> runs are recorded as they happen</p>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>rtk gain</title>
<style>${STYLE}</style>
</head>
<body>
<h1>rtk gain</h1>
<p class="scope">${escapeHtml(d.scope || "all projects, all recorded time")} · made ${escapeHtml(when)} UTC · tokens are o200k tokens; saved = what the host would have shown of the raw output minus what rtk printed</p>
<div class="tiles">${tiles}</div>
${body}
</body>
</html>
`;
}
