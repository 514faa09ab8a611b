// Notebook 05's own helpers (the shared harness, `wb`, keeps what two notebooks use).
import type { LoadResult } from "@workbook/harness";

/** wrk's summary of one run, as it prints it: the lines the Osgood post printed for each of its rows. */
export interface WrkPrinted {
  /** "Latency": Avg, Stdev, Max (ms) and "+/- Stdev" (%), after wrk's own correction. */
  latency: { meanMs: number; stdevMs: number; maxMs: number; withinStdevPct: number };
  /** "Req/Sec": each thread's requests per second, Avg, Stdev, Max. */
  perThread: { mean: number; stdev: number; max: number };
  /** "Requests/sec". */
  reqPerSec: number;
}

const TIME_MS: Record<string, number> = { us: 0.001, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const METRIC: Record<string, number> = { "": 1, k: 1e3, M: 1e6, G: 1e9 };

/** One figure of wrk's report with its unit ("1.87ms", "140.86us", "12.69k"), in ms or in units. */
function figure(text: string, units: Record<string, number>): number {
  const m = /^([\d.]+)([a-zA-Z]*)$/.exec(text);
  const scale = m ? units[m[2]] : undefined;
  if (!m || scale === undefined) throw new Error(`not a figure wrk prints: ${JSON.stringify(text)}`);
  return Number(m[1]) * scale;
}

/** The line of wrk's report that starts with `name`, split into its figures. */
function line(report: string, name: string): string[] {
  const found = report.split("\n").find((l) => l.trim().startsWith(name));
  if (!found) throw new Error(`wrk's report has no ${name} line:\n${report}`);
  return found.trim().slice(name.length).trim().split(/\s+/);
}

/** Reads wrk's own summary out of the report it printed (a LoadResult's `generator.report`). */
export function wrkPrinted(report: string): WrkPrinted {
  const [mean, stdev, max, within] = line(report, "Latency");
  const [tMean, tStdev, tMax] = line(report, "Req/Sec");
  return {
    latency: {
      meanMs: figure(mean, TIME_MS),
      stdevMs: figure(stdev, TIME_MS),
      maxMs: figure(max, TIME_MS),
      withinStdevPct: Number.parseFloat(within),
    },
    perThread: { mean: figure(tMean, METRIC), stdev: figure(tStdev, METRIC), max: figure(tMax, METRIC) },
    reqPerSec: Number(line(report, "Requests/sec:")[0]),
  };
}

/** A time in ms as wrk prints it, two decimals in its unit: 0.14086 ms is "140.86us", 123.57 ms "123.57ms". */
export function wrkTime(ms: number): string {
  if (ms < 1) return `${(ms * 1000).toFixed(2)}us`;
  if (ms < 1000) return `${ms.toFixed(2)}ms`;
  return `${(ms / 1000).toFixed(2)}s`;
}

/** A count as wrk prints it: 12690 is "12.69k". */
export function wrkMetric(n: number): string {
  return n < 1000 ? n.toFixed(2) : `${(n / 1000).toFixed(2)}k`;
}

/** Little's law's mean latency, ms: `connections` always waiting, answered `reqPerSec` times a second. */
export const littleMs = (connections: number, reqPerSec: number): number => (1000 * connections) / reqPerSec;

/** One load's mean latency beside Little's law's, from the generator's own figures. */
export interface MeanReading {
  label: string;
  reqPerSec: number;
  meanMs: number;
  /** 10 / req/s at 10 connections: the mean the connections could have waited. */
  littleMs: number;
  stdevMs: number;
  maxMs: number;
}

/**
 * A load's mean latency and req/s as its generator gave them: wrk's from the report it printed (its
 * own figures, after its correction; the report is the last run's, so load with `repeats: 1`), and
 * autocannon's from every latency it measured.
 */
export function meanReading(load: LoadResult): MeanReading {
  const report = load.generator.name === "wrk" ? load.generator.report : null;
  const printed = report ? wrkPrinted(report) : null;
  const reqPerSec = printed ? printed.reqPerSec : load.reqPerSec.median;
  const l = printed ? printed.latency : { meanMs: load.latencyMs.mean, stdevMs: load.latencyMs.stdev };
  return {
    label: load.label,
    reqPerSec,
    meanMs: l.meanMs,
    littleMs: littleMs(load.connections, reqPerSec),
    stdevMs: l.stdevMs,
    maxMs: printed ? printed.latency.maxMs : load.latencyMs.max,
  };
}
