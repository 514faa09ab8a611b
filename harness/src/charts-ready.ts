import * as Plot from "@observablehq/plot";
import { plot, textTable, Chart, ChartMeta } from "./charts";
import { numberAxis, tickLabel } from "./chart-axes";

/** Ready-made charts. Each takes tidy rows and returns a Chart for show(). */

export interface SpreadRow {
  label: string;
  median: number;
  min: number;
  max: number;
}

/** Horizontal bars at the median with a whisker from min to max across repeats. */
export function barsWithSpread(rows: SpreadRow[], meta: ChartMeta & { unit: string; log?: boolean }): Chart {
  const labels = rows.map((r) => r.label);
  return plot(
    {
      height: 40 + rows.length * 34,
      marginLeft: Math.min(220, 12 + Math.max(...labels.map((l) => l.length)) * 7),
      marginRight: 70,
      x: { label: meta.unit, grid: true, type: meta.log ? "log" : "linear", tickFormat: tickLabel, ...(meta.log ? {} : { domain: [0, Math.max(...rows.map((r) => r.max)) * 1.05] }) },
      y: { label: null, domain: labels },
      marks: [
        Plot.barX(rows, { y: "label", x1: meta.log ? Math.max(1e-3, Math.min(...rows.map((r) => r.min)) / 2) : 0, x2: "median", fill: "#4e79a7", insetTop: 4, insetBottom: 4, title: (r: SpreadRow) => `${r.label}: median ${fmt(r.median)} (${fmt(r.min)}–${fmt(r.max)}) ${meta.unit}` }),
        Plot.ruleY(rows, { y: "label", x1: "min", x2: "max", stroke: "black", strokeWidth: 1.5 }),
        Plot.tickX(rows, { y: "label", x: "min", stroke: "black", insetTop: 9, insetBottom: 9 }),
        Plot.tickX(rows, { y: "label", x: "max", stroke: "black", insetTop: 9, insetBottom: 9 }),
        Plot.text(rows, { y: "label", x: "max", text: (r: SpreadRow) => fmt(r.median), dx: 6, textAnchor: "start" }),
        ...(meta.log ? [] : [Plot.ruleX([0])]),
      ],
    },
    { ...meta, text: `${meta.title}\n${textTable(rows.map((r) => ({ label: r.label, median: r.median, min: r.min, max: r.max })))}` },
  );
}

export interface PercentileRow {
  label: string;
  p50: number;
  p90: number;
  p99: number;
}

/** Latency at p50, p90 and p99 for each label: how the tail differs from the middle. */
export function latencyPercentiles(rows: PercentileRow[], meta: ChartMeta & { log?: boolean }): Chart {
  const long = rows.flatMap((r) => (["p50", "p90", "p99"] as const).map((p) => ({ label: r.label, percentile: p, ms: r[p] })));
  return plot(
    {
      height: 60 + rows.length * 30,
      marginLeft: Math.min(220, 12 + Math.max(...rows.map((r) => r.label.length)) * 7),
      x: { label: "latency (ms)", grid: true, type: meta.log ? "log" : "linear", tickFormat: tickLabel },
      y: { label: null, domain: rows.map((r) => r.label) },
      color: { domain: ["p50", "p90", "p99"], range: ["#59a14f", "#f28e2b", "#e15759"] },
      marks: [
        Plot.ruleY(rows, { y: "label", x1: "p50", x2: "p99", stroke: "#bbb" }),
        Plot.dot(long, { y: "label", x: "ms", fill: "percentile", r: 5, title: (d: any) => `${d.label} ${d.percentile}: ${fmt(d.ms)} ms` }),
        Plot.text(long, { y: "label", x: "ms", text: "percentile", dy: -10, fontSize: 9, fill: "percentile" }),
      ],
    },
    { ...meta, text: `${meta.title}\n${textTable(rows.map((r) => ({ ...r })))}` },
  );
}

export interface SeriesPoint {
  /** x: seconds, connections, loop size... */
  x: number;
  y: number;
  series: string;
}

/** Lines per series, labelled at their last point (no legend box to hunt for). */
export function lines(points: SeriesPoint[], meta: ChartMeta & { xLabel: string; yLabel: string; logX?: boolean; logY?: boolean; dots?: boolean; height?: number }): Chart {
  const series = [...new Set(points.map((p) => p.series))];
  const height = meta.height ?? 260;
  const y = numberAxis(points.map((p) => p.y), { log: meta.logY, zero: !meta.logY, pixels: height - 50 });
  return plot(
    {
      height,
      marginLeft: y.margin,
      marginRight: 20 + Math.max(...series.map((s) => s.length)) * 6.5,
      x: { label: meta.xLabel, type: meta.logX ? "log" : "linear", grid: true, tickFormat: tickLabel },
      y: { label: meta.yLabel, type: meta.logY ? "log" : "linear", grid: true, ticks: y.ticks, tickFormat: y.tickFormat, ...(y.domain ? { domain: y.domain } : {}) },
      color: { domain: series, scheme: "tableau10" },
      marks: [
        Plot.line(points, { x: "x", y: "y", z: "series", stroke: "series", strokeWidth: 2 }),
        ...(meta.dots ?? true ? [Plot.dot(points, { x: "x", y: "y", fill: "series", r: 2.5, title: (p: SeriesPoint) => `${p.series}: ${fmt(p.y)} at ${p.x}` })] : []),
        Plot.text(points, Plot.selectLast({ x: "x", y: "y", z: "series", text: "series", fill: "series", dx: 5, textAnchor: "start" })),
      ],
    },
    { ...meta, text: `${meta.title}\n${textTable(points.map((p) => ({ ...p })))}` },
  );
}

export function fmt(v: number): string {
  if (!Number.isFinite(v)) return String(v);
  const a = Math.abs(v);
  if (a >= 1000) return Math.round(v).toLocaleString("en-US");
  if (a >= 100) return v.toFixed(0);
  if (a >= 10) return v.toFixed(1);
  return v.toFixed(2);
}

