import type { DoctorSeriesRow } from "../charts/doctor";
import { median } from "../core/stats";

export interface DoctorProcessStat {
  timestamp: number;
  delay: number;
  cpu: number;
  memory: { rss: number; heapTotal: number; heapUsed: number; external: number; arrayBuffers?: number };
  handles: number;
  loopUtilization?: number;
}

export interface DoctorData {
  traceEvent: unknown[];
  processStat: DoctorProcessStat[];
  analysis: { issues: Record<string, unknown>; issueCategory: string; interval?: number[] };
}

/** What clinic doctor sampled (its `processStat` and trace events), as rows to read and to draw. */

const MB = 1024 * 1024;

/** doctor's samples as tidy rows. doctor's `cpu` is a fraction of one core (1 = 100 %). */
export function doctorSeries(data: DoctorData): DoctorSeriesRow[] {
  const stats: DoctorProcessStat[] | undefined = data?.processStat;
  if (!Array.isArray(stats) || stats.length === 0)
    throw new Error("the clinic doctor data holds no processStat samples");
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
    samples: rows.length,
    underLoad,
    loadSpanSeconds,
    intervalMs,
    expectedUnderLoad: Math.floor((loadSpanSeconds * 1000) / intervalMs) + (underLoad.length ? 1 : 0),
    medianGapMs: median(gaps),
    idleHandles,
    peakHandles,
  };
}
