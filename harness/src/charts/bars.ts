import * as Plot from "@observablehq/plot";
import { fmt } from "../core/format";
import type { Spread } from "../core/stats";
import { tickLabel } from "./axes";
import { type Chart, type ChartMeta, plot } from "./plot";
import { textTable } from "./tables";
import { MUTED_BAR, PALETTE, PERCENTILE_COLOURS, SMALL_FONT_PX, textWidth } from "./theme";

/** Horizontal bar charts. Each takes tidy rows and returns a Chart for show(). */

/** A figure measured several times (its median and range), or a single number. */
export type SpreadValue = number | Pick<Spread, "median" | "min" | "max">;

export interface SpreadRow {
  label: string;
  median: number;
  min: number;
  max: number;
  /** OPTIONAL words written after the median beside the bar ("±2.1 %"). */
  note?: string;
  /** OPTIONAL: the bar is drawn grey, a figure not to trust (say why in the subtitle). */
  muted?: boolean;
}

/** A left margin as wide as the longest label: labels are never clipped (the chart widens instead). */
const leftMargin = (labels: string[]) => Math.ceil(14 + Math.max(...labels.map((l) => textWidth(l))));

/**
 * Horizontal bars at the median with a whisker from min to max across repeats, the median written
 * beside each (as the log axis labels it: 12.5k, 1.2M), then the row's `note`; a `muted` row is grey.
 * Rows `{ label, median, min, max, note?, muted? }` (a `Spread` spreads into one). `meta.unit`
 * REQUIRED (the x axis label); `meta.log` OPTIONAL, default false.
 *
 * @example
 * wb.show(wb.barsWithSpread(steps.map((s) => ({ label: s.label, ...s.reqPerSec })),
 *   { unit: "req/s", log: true, title: "Every step, req/s (median and range)" }));
 */
export function barsWithSpread(rows: SpreadRow[], meta: ChartMeta & { unit: string; log?: boolean }): Chart {
  const labels = rows.map((r) => r.label);
  const lo = meta.log ? Math.max(1e-3, Math.min(...rows.map((r) => r.min)) / 2) : 0;
  const marginLeft = leftMargin(labels);
  const valueText = (r: SpreadRow) => `${(meta.log ? tickLabel : fmt)(r.median)}${r.note ? ` ${r.note}` : ""}`;
  const marginRight = Math.ceil(Math.max(70, 16 + Math.max(...rows.map((r) => textWidth(valueText(r))))));
  return plot(
    {
      width: Math.max(640, marginLeft + marginRight + 330),
      height: 40 + rows.length * 34,
      marginLeft,
      marginRight,
      x: {
        label: meta.unit,
        grid: true,
        type: meta.log ? "log" : "linear",
        tickFormat: tickLabel,
        ...(meta.log ? {} : { domain: [0, Math.max(...rows.map((r) => r.max)) * 1.05] }),
      },
      y: { label: null, domain: labels },
      marks: [
        Plot.barX(rows, {
          y: "label",
          x1: lo,
          x2: "median",
          fill: (r: SpreadRow) => (r.muted ? MUTED_BAR : PALETTE[0]),
          insetTop: 4,
          insetBottom: 4,
          title: (r: SpreadRow) => `${r.label}: median ${fmt(r.median)} (${fmt(r.min)}–${fmt(r.max)}) ${meta.unit}`,
        }),
        Plot.ruleY(rows, { y: "label", x1: "min", x2: "max", stroke: "black", strokeWidth: 1.5 }),
        Plot.tickX(rows, { y: "label", x: "min", stroke: "black", insetTop: 9, insetBottom: 9 }),
        Plot.tickX(rows, { y: "label", x: "max", stroke: "black", insetTop: 9, insetBottom: 9 }),
        Plot.text(rows, { y: "label", x: "max", text: valueText, dx: 6, textAnchor: "start" }),
        ...(meta.log ? [] : [Plot.ruleX([0])]),
      ],
    },
    {
      ...meta,
      text: `${meta.title}\n${textTable(
        rows.map((r) => ({
          label: r.label,
          median: r.median,
          min: r.min,
          max: r.max,
          ...(r.note ? { note: r.note } : {}),
        })),
      )}`,
    },
  );
}

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

export interface GroupedMeta extends ChartMeta {
  unit: string;
  /** A dashed vertical line there (e.g. 1 for ratios, a threshold); say what it is in the subtitle. */
  reference?: number;
  series?: string[];
  /** Colours of the series, in order. Default: the palette. */
  colours?: string[];
  digits?: number;
  /** A log x axis, for values that span decades. Default false. */
  log?: boolean;
}

/** The powers of ten from `lo` to `hi`: a log axis labelled once per decade. */
function decades(lo: number, hi: number): number[] {
  const out: number[] = [];
  for (let e = Math.round(Math.log10(lo)); 10 ** e <= hi; e++) out.push(10 ** e);
  return out;
}

/**
 * Horizontal bars grouped by label, one bar per series inside each group, each bar labelled
 * with its value (no legend box: the series names sit beside the bars). `meta.reference` draws a
 * dashed line, e.g. at 1.0 for ratios. The left margin fits the longest label and the chart
 * widens (from 640 px) to keep room for the bars: labels are never clipped. A row's `value` null
 * draws "n/a" and no bar; `min` and `max` a whisker. `meta.title`, `meta.unit` REQUIRED; `subtitle`,
 * `series` (their order; default: first appearance), `colours` (in that order), `digits` (of the
 * value labels; default `fmt()`) and `log` (labelled once per decade, bars growing from the decade
 * below the smallest value; default false) OPTIONAL.
 */
export function groupedBars(rows: GroupedRow[], meta: GroupedMeta): Chart {
  const labels = [...new Set(rows.map((r) => r.label))];
  const series = meta.series ?? [...new Set(rows.map((r) => r.series))];
  const drawn = rows.filter((r) => r.value !== null) as (GroupedRow & { value: number })[];
  const log = meta.log === true;
  const top = Math.max(meta.reference ?? 0, ...drawn.map((r) => Math.max(r.value, r.max ?? 0)));
  const positive = [
    ...drawn.flatMap((r) => [r.value, r.min ?? r.value]),
    ...(meta.reference !== undefined ? [meta.reference] : []),
  ].filter((v) => v > 0);
  // A log axis starts at the decade strictly below the smallest value (1 for a smallest value of
  // 10, 10 for 15), so that every bar has a length; bars grow from there.
  const floor = log ? 10 ** (Math.ceil(Math.log10(positive.length ? Math.min(...positive) : 10)) - 1) : 0;
  const label = (v: number) => (meta.digits === undefined ? fmt(v) : v.toFixed(meta.digits));
  const valueText = (r: GroupedRow) => `${r.value === null ? "n/a" : label(r.value)}  ${r.series}`;
  const marginLeft = leftMargin(labels);
  const marginRight = Math.ceil(24 + Math.max(...rows.map((r) => textWidth(valueText(r), SMALL_FONT_PX))));
  const at = (r: GroupedRow) => (r.value === null ? floor : Math.max(r.value, r.max ?? 0, floor));
  return plot(
    {
      width: Math.max(640, marginLeft + marginRight + 300),
      height: 30 + labels.length * (series.length * 14 + 14),
      marginLeft,
      marginRight,
      x: log
        ? {
            label: meta.unit,
            grid: true,
            type: "log",
            domain: [floor, top * 1.3],
            ticks: decades(floor, top * 1.3),
            tickFormat: (d: number) => d.toLocaleString("en-US", { maximumSignificantDigits: 1 }),
          }
        : { label: meta.unit, grid: true, domain: [0, top * 1.02] },
      y: { axis: null, domain: series },
      fy: { label: null, domain: labels, padding: 0.12, axis: "left" },
      color: { domain: series, range: meta.colours ?? PALETTE },
      marks: [
        Plot.frame({ stroke: "#eee" }),
        Plot.barX(
          drawn.filter((r) => !log || r.value > floor),
          {
            fy: "label",
            y: "series",
            x1: floor,
            x2: "value",
            fill: "series",
            insetTop: 1,
            insetBottom: 1,
            title: (r: GroupedRow) => `${r.label}, ${r.series}: ${label(r.value ?? NaN)} ${meta.unit}`,
          },
        ),
        Plot.ruleY(
          drawn.filter((r) => r.min !== undefined && r.max !== undefined),
          {
            fy: "label",
            y: "series",
            x1: (r: GroupedRow) => Math.max(r.min as number, floor),
            x2: "max",
            stroke: "black",
          },
        ),
        Plot.text(rows, {
          fy: "label",
          y: "series",
          x: at,
          text: valueText,
          fill: "series",
          dx: 4,
          textAnchor: "start",
          fontSize: SMALL_FONT_PX,
        }),
        ...(meta.reference !== undefined
          ? [Plot.ruleX([meta.reference], { stroke: "#333", strokeDasharray: "4,3" })]
          : []),
        ...(log ? [] : [Plot.ruleX([0])]),
      ],
    },
    {
      ...meta,
      text: `${meta.title}\n${textTable(
        rows.map((r) => ({
          label: r.label,
          series: r.series,
          value: r.value ?? "n/a",
          ...(r.min !== undefined ? { min: r.min, max: r.max } : {}),
        })),
      )}`,
    },
  );
}

export interface PercentileBarRow {
  label: string;
  p50: SpreadValue;
  p90: SpreadValue;
  p99: SpreadValue;
}

/**
 * p50, p90 and p99 for each label as grouped bars; a figure given with its spread across runs is
 * drawn at its median with a min-max whisker (a `Spread` over the runs, e.g. from notebook 02's
 * `runPercentiles`: the median run, the best and worst runs); green, orange, red; a non-finite figure draws "n/a". `meta.unit` defaults to
 * "latency (ms)"; `log`, `reference` (e.g. a threshold), `digits` as for groupedBars.
 *
 * @example
 * const byRun = (r: wb.LoadResult, p: "p50" | "p90" | "p99") => wb.spread(r.runs.map((run) => run.latencyMs[p]));
 * wb.show(wb.percentileBars([alone, blocked].map((r) =>
 *   ({ label: r.label, p50: byRun(r, "p50"), p90: byRun(r, "p90"), p99: byRun(r, "p99") })),
 *   { title: "Head-of-line blocking", log: true }));
 */
export function percentileBars(
  rows: PercentileBarRow[],
  meta: Omit<GroupedMeta, "unit" | "series"> & { unit?: string },
): Chart {
  const pcts = ["p50", "p90", "p99"] as const;
  return groupedBars(
    rows.flatMap((r) =>
      pcts.map((p) => {
        const v = r[p];
        if (typeof v === "number") return { label: r.label, series: p, value: Number.isFinite(v) ? v : null };
        return Number.isFinite(v.median)
          ? { label: r.label, series: p, value: v.median, min: v.min, max: v.max }
          : { label: r.label, series: p, value: null };
      }),
    ),
    { ...meta, unit: meta.unit ?? "latency (ms)", series: [...pcts], colours: pcts.map((p) => PERCENTILE_COLOURS[p]) },
  );
}
