import fs from "node:fs";
import path from "node:path";
import { describeMachine, fmt, type HotFrame, notMeasured, pct, repoRoot } from "@workbook/harness";
import type { DiagnosisCharts } from "./charts";
import { checkText } from "./checks";
import type { Collected } from "./collect";
import type { Evidence } from "./evidence";
import { pathText } from "./paths";
import { lineText } from "./places";
import type { Verdict } from "./verdict";
import type { Yardstick } from "./yardstick";

/**
 * The report: one HTML page that needs nothing but itself (charts inline as SVG, styles inline, no
 * script, no font or file from elsewhere), written beside the profiles it was made from.
 */

const esc = (s: unknown) =>
  String(s).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

type Row = Record<string, string | number | boolean | null>;

/** An HTML table of plain values: numbers right-aligned and formatted; `dim` greys a row out. */
function table(rows: Row[], dim: (r: Row) => boolean = () => false): string {
  if (rows.length === 0) return "<p><em>(none)</em></p>";
  const cols = Object.keys(rows[0]);
  const cell = (v: unknown) =>
    typeof v === "number" ? `<td class="n">${esc(fmt(v))}</td>` : `<td>${esc(v ?? "—")}</td>`;
  const head = cols.map((c) => `<th>${esc(c)}</th>`).join("");
  const tr = (r: Row) => `<tr${dim(r) ? ' class="no"' : ""}>${cols.map((c) => cell(r[c])).join("")}</tr>`;
  const body = rows.map(tr).join("\n");
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${body}\n</tbody></table>`;
}

const frames = (hot: HotFrame[], unit: string) =>
  table(
    hot.map((h) => ({
      frame: h.name,
      where: h.file ? `${h.file}:${h.line}` : "(native)",
      whose: h.category,
      [`self, % of ${unit}`]: +(h.selfShare * 100).toFixed(1),
      [`with what it called, % of ${unit}`]: +(
        (h.category === "user" ? h.attributedShare : h.totalShare) * 100
      ).toFixed(1),
    })),
  );

const figure = (svg: string) => `<figure>${svg}</figure>`;

/** The app's CPU per request beside its references, each measured beside it. */
function yardstickTable(y: Yardstick | null, app: string, route: string): string {
  if (!y) return "<p><em>No reference was measured: the verdict read the shares of busy time alone.</em></p>";
  const ref = y.against === "framework" ? y.framework : y.bare;
  const row = (what: string, ms: number | null, rps: number | null, server: string) => ({
    server: what,
    "CPU per request, ms": ms,
    "against the reference": ms !== null && ref?.cpuPerRequestMs ? `${fmt(ms / ref.cpuPerRequestMs)}x` : null,
    "req/s": rps,
    command: server,
  });
  const rows = [
    row(`${app} ${route}`, y.appMs, null, ""),
    ...[y.framework, y.bare]
      .filter((r) => r !== null)
      .map((r) =>
        row(
          `${r.title} ${r.version} ${r.route}${r === ref ? " (the reference)" : ""}`,
          r.cpuPerRequestMs,
          r.reqPerSec,
          r.server,
        ),
      ),
  ];
  return table(rows);
}

/** The hot paths, from the code that asked to the leaf. */
const pathsTable = (e: Evidence) =>
  table(
    (e.busy.paths ?? []).slice(0, 8).map((p) => ({
      kind: p.kind,
      whose: p.package ?? "the app",
      "% of busy time": +(p.share * 100).toFixed(1),
      path: pathText(p.frames),
      "called by": p.calledBy ? `${p.calledBy.name} (${p.calledBy.file}:${p.calledBy.line})` : null,
      "the app's line": p.line ? `${p.line.file}:${p.line.line} ${lineText(p.line.text)}` : null,
    })),
  );

const STYLE = `body{font-family:"DejaVu Sans",Verdana,sans-serif;max-width:960px;margin:2em auto;padding:0 1em;color:#111}
pre{background:#f4f4f4;padding:.8em 1em;white-space:pre-wrap;line-height:1.45}
table{border-collapse:collapse;margin:.8em 0;font-size:14px}th,td{border-bottom:1px solid #ddd;padding:3px 8px;text-align:left}
td.n{text-align:right;font-variant-numeric:tabular-nums}tr.no td{color:#888}figure{margin:1.2em 0}svg{max-width:100%;height:auto}
.meta{color:#555;font-size:14px}`;

export function reportHtml(c: Collected, e: Evidence, v: Verdict, charts: DiagnosisCharts): string {
  const rel = (f: string) => path.relative(repoRoot, f);
  const rules = v.findings.flatMap((f) =>
    f.checks.map((k) => ({
      rule: f.title,
      fired: f.fired ? "yes" : "no",
      check: checkText(k),
      near: k.near ? "close" : "",
    })),
  );
  const load = c.load;
  const figures = {
    "req/s": load.reqPerSec.median,
    "latency p50, ms": load.latencyMs.p50,
    "latency p99, ms": load.latencyMs.p99,
    "CPU per request, ms": e.cpuPerRequestMs,
    "app CPU, % of a core": e.cpuPercent,
    "its main thread's, % of a core": e.threads.mainCpuPercent,
    ...(e.threads.byKind
      ? {
          "libuv's pool, % of a core": e.threads.byKind.pool,
          "worker threads, % of a core": e.threads.byKind.workers,
          "V8's helpers, % of a core": e.threads.byKind.v8,
        }
      : { "other threads, % of a core": e.threads.offMainCpuPercent }),
    "event-loop utilisation": pct(e.elu),
    "GC, % of the time": pct(e.gcShare, 1),
    "heap slope, MB/s": e.heap.slopeMBps,
    "allocated, MB/s": e.allocMBps,
    "load generator saturated": { true: "yes: req/s is its limit", false: "no", null: notMeasured() }[
      String(load.generator.saturated) as "true" | "false" | "null"
    ],
  };
  const how =
    `${c.warmup.durationSeconds} s warm-up, ${load.durationSeconds} s watched (the probe's samples every ${c.sampleMs} ms, ` +
    `no profiler attached), then ${c.profiled.reduce((a, r) => a + r.durationSeconds, 0)} s profiled (CPU profile at 1 ms, sampling heap profile of ` +
    `every allocation) in loads of a second, a full garbage collection after each (and one before and after the ` +
    `watched seconds: what the app keeps, below), all at ${load.connections} connections on ${c.route}, one app process. ${load.pinning.note}.`;
  const kept = e.memory.points.map((p) => ({
    "seconds after the watch began": +p.at.toFixed(1),
    "requests answered": p.served,
    "heap kept, MB": +p.heapMB.toFixed(2),
    "outside the heap, MB": +p.externalMB.toFixed(2),
    profilers: p.profiling ? "on" : "off",
  }));
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Diagnosis: ${esc(c.app)} ${esc(c.route)}</title><style>${STYLE}</style></head>
<body>
<h1>Diagnosis: ${esc(c.app)} ${esc(c.route)}</h1>
<p class="meta">${esc(new Date(c.window.startedAt).toISOString())} · ${esc(describeMachine())}</p>
<h2>Verdict</h2>
<pre>${esc(v.lines.join("\n"))}</pre>
<h2>Every rule and the numbers it compared</h2>
${table(rules, (r) => r.fired === "no")}
<h2>What a request costs, against servers that only answer</h2>
${yardstickTable(e.yardstick, c.app, c.route)}
<h2>The load</h2>
${table([figures])}
${figure(charts.load.svg)}
<h2>Over time</h2>
${figure(charts.timeline.svg)}
<h2>Where the CPU goes</h2>
${figure(charts.flame.svg)}
${frames(e.hot, "busy CPU")}
<h3>The hot paths, from the code that asked for the work</h3>
${pathsTable(e)}
${e.hottestLine ? `<p>Hottest line: <code>${esc(`${e.hottestLine.file}:${e.hottestLine.line}`)}</code> <code>${esc(lineText(e.hottestLine.text ?? ""))}</code> (${pct(e.hottestLine.share)} of ${esc(e.hottestLine.name)}'s own samples)</p>` : ""}
<h2>What full collections left</h2>
${table(kept)}
<h2>Where the bytes are allocated</h2>
${figure(charts.allocations.svg)}
${frames(e.allocationSites, "sampled bytes")}
<h2>How this was measured</h2>
<p>${esc(how)}</p>
<p>Open the profiles in Chrome DevTools (Performance / Memory) or speedscope for an interactive view:
<code>${esc(rel(c.cpuProfileFile))}</code>, <code>${esc(rel(c.heapProfileFile))}</code>.</p>
</body></html>
`;
}

/** The ranking of several routes (routes.ts): one row a route, costliest first, each linking its own report. */
export function routesHtml(
  app: string,
  against: string,
  rows: {
    route: string;
    cpuPerRequestMs: number | null;
    ratio: number | null;
    verdict: string;
    report: string | null;
  }[],
  command: string | null,
  dir: string,
): string {
  const link = (r: (typeof rows)[number]) =>
    r.report ? `<a href="${esc(path.relative(dir, r.report))}">${esc(r.route)}</a>` : esc(r.route);
  const body = rows
    .map(
      (r, i) =>
        `<tr><td class="n">${i + 1}</td><td>${link(r)}</td><td class="n">${esc(r.cpuPerRequestMs === null ? "—" : fmt(r.cpuPerRequestMs))}</td>` +
        `<td class="n">${esc(r.ratio === null ? "—" : `${fmt(r.ratio)}x`)}</td><td>${esc(r.verdict)}</td></tr>`,
    )
    .join("\n");
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Routes of ${esc(app)}</title><style>${STYLE}</style></head>
<body>
<h1>Routes of ${esc(app)}, costliest first</h1>
<p class="meta">${esc(describeMachine())}</p>
<p>Ranked by CPU per request against ${esc(against)}.</p>
<table><thead><tr><th>rank</th><th>route</th><th>CPU per request, ms</th><th>against the reference</th><th>verdict</th></tr></thead><tbody>
${body}
</tbody></table>
${command ? `<p>The same from a terminal, from the workbook's folder: <code>${esc(command)}</code></p>` : ""}
</body></html>
`;
}

/** Write the report into the diagnosis's folder; returns its path. */
export function writeReport(c: Collected, html: string): string {
  const file = path.join(c.dir, "report.html");
  fs.writeFileSync(file, html);
  return file;
}
