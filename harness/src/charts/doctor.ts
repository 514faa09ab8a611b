import * as Plot from "@observablehq/plot";
import { type Chart, type ChartMeta, plot, stack } from "./plot";
import { textTable } from "./tables";
import { CATEGORY_COLOURS, MEMORY_COLOURS, PALETTE } from "./theme";

/**
 * Our own drawing of what clinic doctor sampled: the same four panels as doctor's report, as one
 * stacked chart that survives export (SVG + PNG + text). profiles/doctor.ts turns doctor's data into rows.
 */
export interface DoctorSeriesRow {
  /** Seconds since doctor's first sample. */
  t: number;
  delayMs: number;
  cpuPercent: number;
  heapUsedMB: number;
  heapTotalMB: number;
  rssMB: number;
  handles: number;
}

function panel(
  rows: DoctorSeriesRow[],
  keys: { key: keyof DoctorSeriesRow; label: string; colour: string }[],
  title: string,
  yLabel: string,
  extra: Plot.Markish[] = [],
): Chart {
  const long = rows.flatMap((r) => keys.map((k) => ({ t: r.t, v: r[k.key] as number, series: k.label })));
  const tMax = Math.max(0.001, ...rows.map((r) => r.t));
  return plot(
    {
      width: 760,
      height: 150,
      marginLeft: 60,
      marginRight: 110,
      x: { label: "seconds since doctor's first sample", domain: [0, tMax], grid: true },
      y: { label: yLabel, grid: true, zero: true },
      color: { domain: keys.map((k) => k.label), range: keys.map((k) => k.colour) },
      marks: [
        ...extra,
        Plot.line(long, { x: "t", y: "v", z: "series", stroke: "series", strokeWidth: 1.8 }),
        Plot.dot(long, { x: "t", y: "v", fill: "series", r: 1.8 }),
        Plot.text(
          long,
          Plot.selectLast({ x: "t", y: "v", z: "series", text: "series", fill: "series", dx: 5, textAnchor: "start" }),
        ),
      ],
    },
    { title },
  );
}

/**
 * One stacked chart of clinic doctor's samples: event-loop delay, CPU, heap (used and total,
 * with V8's garbage collections as ticks along the bottom) and active handles, over time.
 * `meta.title` REQUIRED; `meta.subtitle` OPTIONAL. Throws when the data has no samples.
 */
export function doctorCharts(rows: DoctorSeriesRow[], gc: number[], meta: ChartMeta): Chart {
  if (rows.length === 0) throw new Error("doctorCharts: no samples to draw");
  const n = rows.length;
  const charts = [
    panel(
      rows,
      [{ key: "delayMs", label: "loop delay", colour: CATEGORY_COLOURS.user }],
      "Event-loop delay (ms): how late doctor's own timer fired",
      "ms",
    ),
    panel(rows, [{ key: "cpuPercent", label: "CPU", colour: PALETTE[0] }], "CPU (% of one core)", "%"),
    panel(
      rows,
      [
        { key: "heapTotalMB", label: "heap total", colour: MEMORY_COLOURS.heapTotal },
        { key: "heapUsedMB", label: "heap used", colour: MEMORY_COLOURS.heapUsed },
      ],
      `Heap (MB); ticks along the bottom: ${gc.length} garbage collections`,
      "MB",
      [
        Plot.ruleX(
          gc.filter((t) => t >= 0),
          {
            x: (t: number) => t,
            y1: 0,
            y2: 0.08 * Math.max(1, ...rows.map((r) => r.heapTotalMB)),
            stroke: MEMORY_COLOURS.heapUsed,
            strokeOpacity: 0.6,
          },
        ),
      ],
    ),
    panel(
      rows,
      [{ key: "handles", label: "handles", colour: PALETTE[2] }],
      "Active handles (sockets, timers, servers)",
      "handles",
    ),
  ];
  // The text version keeps the first sample of each twentieth of the time axis (and the last), so
  // that a burst of samples while the app idles does not crowd out the sparse ones under load.
  const tMax = Math.max(1e-9, rows[n - 1].t);
  const buckets = new Set<number>();
  const shown = rows.filter((r, i) => {
    const b = Math.floor((r.t / tMax) * 20);
    if (buckets.has(b) && i !== n - 1) return false;
    buckets.add(b);
    return true;
  });
  const text = textTable(
    shown.map((r) => ({
      "t s": r.t,
      "delay ms": r.delayMs,
      "cpu %": r.cpuPercent,
      "heap used MB": r.heapUsedMB,
      "heap total MB": r.heapTotalMB,
      handles: r.handles,
    })),
  );
  return stack(charts, {
    title: meta.title,
    subtitle: meta.subtitle ?? `${n} samples of clinic doctor`,
    text: `${meta.text ?? meta.title}\n${text}`,
  });
}
