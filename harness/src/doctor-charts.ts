import * as Plot from "@observablehq/plot";
import { plot, stack, textTable, Chart, ChartMeta } from "./charts";
import { median } from "./stats";
import type { DoctorData, DoctorProcessStat } from "./clinic";

/**
 * Our own drawing of what clinic doctor sampled (its `processStat`): the same four panels as
 * doctor's report, as one stacked chart that survives export (SVG + PNG + text).
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

const MB = 1024 * 1024;

/** doctor's samples as tidy rows. doctor's `cpu` is a fraction of one core (1 = 100 %). */
export function doctorSeries(data: DoctorData): DoctorSeriesRow[] {
  const stats: DoctorProcessStat[] | undefined = data?.processStat;
  if (!Array.isArray(stats) || stats.length === 0) throw new Error("the clinic doctor data holds no processStat samples");
  const t0 = stats[0].timestamp;
  return stats.map((s) => ({
    t: (s.timestamp - t0) / 1000,
    delayMs: s.delay,
    cpuPercent: s.cpu * 100,
    heapUsedMB: s.memory.heapUsed / MB,
    heapTotalMB: s.memory.heapTotal / MB,
    rssMB: s.memory.rss / MB,
    handles: s.handles,
  }));
}

/** Seconds (since the first sample) at which V8 reported a garbage collection, from doctor's trace events. */
export function doctorGcTimes(data: DoctorData): number[] {
  const t0 = data.processStat[0]?.timestamp ?? 0;
  const out: number[] = [];
  for (const e of data.traceEvent ?? []) {
    const ev = e as { name?: string; args?: { startTimestamp?: number } };
    if (typeof ev.name === "string" && ev.name.startsWith("V8.GC") && typeof ev.args?.startTimestamp === "number") {
      out.push((ev.args.startTimestamp - t0) / 1000);
    }
  }
  return out;
}

/** How densely doctor sampled while the load ran: its timer runs on the app's own event loop. */
export interface DoctorSampling {
  /** Every sample doctor took. */
  samples: number;
  /** The samples taken under load: more handles open than the fewest seen (the load's sockets). */
  underLoad: DoctorSeriesRow[];
  /** Seconds from the first to the last sample under load (0 with fewer than two). */
  loadSpanSeconds: number;
  /** The interval doctor asked for, in ms (clinic's --sample-interval). */
  intervalMs: number;
  /** Samples that interval would have given over loadSpanSeconds. */
  expectedUnderLoad: number;
  /** Median gap between consecutive samples under load, in ms; NaN with fewer than two. */
  medianGapMs: number;
  /** The fewest handles seen (the idle app) and the most (under load). */
  idleHandles: number;
  peakHandles: number;
}

/**
 * doctor's sampling under load. doctor samples from a timer in the profiled process: when the
 * event loop is blocked, the timer fires late and samples are missed. `intervalMs` OPTIONAL,
 * default 10 (clinic's default --sample-interval, which clinicDoctor() keeps). Throws when the
 * data has no samples.
 */
export function doctorSampling(data: DoctorData, intervalMs = 10): DoctorSampling {
  const rows = doctorSeries(data);
  const idleHandles = Math.min(...rows.map((r) => r.handles));
  const peakHandles = Math.max(...rows.map((r) => r.handles));
  const underLoad = rows.filter((r) => r.handles > idleHandles);
  const loadSpanSeconds = underLoad.length > 1 ? underLoad[underLoad.length - 1].t - underLoad[0].t : 0;
  const gaps = underLoad.slice(1).map((r, i) => (r.t - underLoad[i].t) * 1000);
  return {
    samples: rows.length, underLoad, loadSpanSeconds, intervalMs,
    expectedUnderLoad: Math.floor((loadSpanSeconds * 1000) / intervalMs) + (underLoad.length ? 1 : 0),
    medianGapMs: median(gaps), idleHandles, peakHandles,
  };
}

function panel(rows: DoctorSeriesRow[], keys: { key: keyof DoctorSeriesRow; label: string; colour: string }[], title: string, yLabel: string, extra: Plot.Markish[] = []): Chart {
  const long = rows.flatMap((r) => keys.map((k) => ({ t: r.t, v: r[k.key] as number, series: k.label })));
  const tMax = Math.max(0.001, ...rows.map((r) => r.t));
  return plot({
    width: 760, height: 150, marginLeft: 60, marginRight: 110,
    x: { label: "seconds since doctor's first sample", domain: [0, tMax], grid: true },
    y: { label: yLabel, grid: true, zero: true },
    color: { domain: keys.map((k) => k.label), range: keys.map((k) => k.colour) },
    marks: [
      ...extra,
      Plot.line(long, { x: "t", y: "v", z: "series", stroke: "series", strokeWidth: 1.8 }),
      Plot.dot(long, { x: "t", y: "v", fill: "series", r: 1.8 }),
      Plot.text(long, Plot.selectLast({ x: "t", y: "v", z: "series", text: "series", fill: "series", dx: 5, textAnchor: "start" })),
    ],
  }, { title });
}

/**
 * One stacked chart of clinic doctor's samples: event-loop delay, CPU, heap (used and total,
 * with V8's garbage collections as ticks along the bottom) and active handles, over time.
 * `meta.title` REQUIRED; `meta.subtitle` OPTIONAL. Throws when the data has no samples.
 */
export function doctorCharts(data: DoctorData, meta: ChartMeta): Chart {
  const rows = doctorSeries(data);
  const gc = doctorGcTimes(data);
  const n = rows.length;
  const charts = [
    panel(rows, [{ key: "delayMs", label: "loop delay", colour: "#e15759" }], "Event-loop delay (ms): how late doctor's own timer fired", "ms"),
    panel(rows, [{ key: "cpuPercent", label: "CPU", colour: "#4e79a7" }], "CPU (% of one core)", "%"),
    panel(rows, [{ key: "heapTotalMB", label: "heap total", colour: "#bab0ac" }, { key: "heapUsedMB", label: "heap used", colour: "#b07aa1" }],
      `Heap (MB); ticks along the bottom: ${gc.length} garbage collections`, "MB",
      [Plot.ruleX(gc.filter((t) => t >= 0), { x: (t: number) => t, y1: 0, y2: 0.08 * Math.max(1, ...rows.map((r) => r.heapTotalMB)), stroke: "#b07aa1", strokeOpacity: 0.6 })]),
    panel(rows, [{ key: "handles", label: "handles", colour: "#59a14f" }], "Active handles (sockets, timers, servers)", "handles"),
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
  const text = textTable(shown.map((r) => ({
    "t s": r.t, "delay ms": r.delayMs, "cpu %": r.cpuPercent, "heap used MB": r.heapUsedMB, "heap total MB": r.heapTotalMB, handles: r.handles,
  })));
  return stack(charts, {
    title: meta.title,
    subtitle: meta.subtitle ?? `${n} samples of clinic doctor; issue category "${data.analysis?.issueCategory ?? "n/a"}"`,
    text: `${meta.text ?? meta.title}\n${text}`,
  });
}
