import * as Plot from "@observablehq/plot";
import { plot, textTable, Chart, ChartMeta } from "./charts";
import { fmt } from "./charts-ready";

export interface GroupedRow {
  /** The group: one block of bars per label (a framework, a runtime...). */
  label: string;
  /** The bar within the group (a route, a load, a source...); one colour per series. */
  series: string;
  /** null draws no bar and writes "n/a" (a figure the source does not have). */
  value: number | null;
  /** OPTIONAL whisker, e.g. the min-max across repeats. */
  min?: number;
  max?: number;
}

const PALETTE = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#b07aa1", "#9c755f"];

/**
 * Horizontal bars grouped by label, one bar per series inside each group, each bar labelled
 * with its value (no legend box: the series names sit on the axis). `meta.reference` draws a
 * dashed line, e.g. at 1.0 for ratios.
 */
export function groupedBars(rows: GroupedRow[], meta: ChartMeta & { unit: string; reference?: number; series?: string[]; digits?: number }): Chart {
  const labels = [...new Set(rows.map((r) => r.label))];
  const series = meta.series ?? [...new Set(rows.map((r) => r.series))];
  const drawn = rows.filter((r) => r.value !== null) as (GroupedRow & { value: number })[];
  const top = Math.max(meta.reference ?? 0, ...drawn.map((r) => Math.max(r.value, r.max ?? 0)));
  const label = (v: number) => (meta.digits === undefined ? fmt(v) : v.toFixed(meta.digits));
  const longestLabel = Math.max(...labels.map((l) => l.length));
  const longestSeries = Math.max(...series.map((s) => s.length));
  return plot(
    {
      height: 30 + labels.length * (series.length * 14 + 14),
      marginLeft: Math.min(200, 14 + longestLabel * 6.5),
      marginRight: 20 + (longestSeries + 9) * 5.5,
      x: { label: meta.unit, grid: true, domain: [0, top * 1.02] },
      y: { axis: null, domain: series },
      fy: { label: null, domain: labels, padding: 0.12, axis: "left" },
      color: { domain: series, range: PALETTE },
      marks: [
        Plot.frame({ stroke: "#eee" }),
        Plot.barX(drawn, { fy: "label", y: "series", x: "value", fill: "series", insetTop: 1, insetBottom: 1, title: (r: GroupedRow) => `${r.label}, ${r.series}: ${label(r.value ?? NaN)} ${meta.unit}` }),
        Plot.ruleY(drawn.filter((r) => r.min !== undefined && r.max !== undefined), { fy: "label", y: "series", x1: "min", x2: "max", stroke: "black" }),
        Plot.text(rows, {
          fy: "label", y: "series", x: (r: GroupedRow) => (r.value === null ? 0 : Math.max(r.value, r.max ?? 0)),
          text: (r: GroupedRow) => `${r.value === null ? "n/a" : label(r.value)}  ${r.series}`, fill: "series", dx: 4, textAnchor: "start", fontSize: 9.5,
        }),
        ...(meta.reference !== undefined ? [Plot.ruleX([meta.reference], { stroke: "#333", strokeDasharray: "4,3" })] : []),
        Plot.ruleX([0]),
      ],
    },
    { ...meta, text: `${meta.title}\n${textTable(rows.map((r) => ({ label: r.label, series: r.series, value: r.value ?? "n/a", ...(r.min !== undefined ? { min: r.min, max: r.max } : {}) })))}` },
  );
}
