import type { AppHandle } from "../apps/start";
import { loopbackUrl } from "../core/loopback";

/**
 * A typed reader for GET /__metrics, the event-loop report every notebook-02 app serves
 * (apps/lib/loop-metrics.js). Delays are Node's raw monitorEventLoopDelay values: an idle loop
 * reads about `resolutionMs`; subtract it to get the delay itself.
 */

export interface LoopMetricsRow {
  /** Seconds since the app started or its metrics were reset (the end of the interval). */
  t: number;
  /** The interval's real length: well above the nominal 1000 ms means the loop was blocked that long. */
  intervalMs: number;
  samples: number;
  delayP50Ms: number | null;
  delayP99Ms: number | null;
  delayMaxMs: number | null;
  /** Event-loop utilisation over the interval, 0-1. */
  elu: number;
}

export interface LoopMetricsHistogram {
  count: number;
  min: number | null;
  mean: number | null;
  p50: number | null;
  p90: number | null;
  p99: number | null;
  p999: number | null;
  max: number | null;
  resolutionMs: number;
  elu: number;
}

export interface LoopMetricsSnapshot {
  loopMetrics: 1;
  app: string;
  pid: number;
  resolutionMs: number;
  intervalMs: number;
  startedAt: number;
  elapsedMs: number;
  info: Record<string, unknown>;
  histogram: LoopMetricsHistogram;
  /**
   * CPU time since the app started or was reset, in ms: the whole process's (every thread) and its main
   * thread's alone (null where Node cannot tell it: before 23.9). Absent from an older report.
   */
  cpu?: { processMs: number; mainThreadMs: number | null };
  series: LoopMetricsRow[];
  current: LoopMetricsRow;
}

/** Read an app's /__metrics; `reset: true` also starts its histograms and series again. */
export async function loopMetrics(
  target: AppHandle | string,
  opts: { reset?: boolean; timeoutMs?: number } = {},
): Promise<LoopMetricsSnapshot> {
  const base = typeof target === "string" ? target : target.url;
  const url = loopbackUrl(base, opts.reset ? "/__metrics?reset=1" : "/__metrics");
  const res = await fetch(url, { signal: AbortSignal.timeout(opts.timeoutMs ?? 10000), redirect: "manual" });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`loopMetrics: ${url.href} answered ${res.status}: ${text.slice(0, 200)}`);
  let body: LoopMetricsSnapshot;
  try {
    body = JSON.parse(text);
  } catch {
    throw new Error(`loopMetrics: ${url.href} did not answer JSON: ${text.slice(0, 200)}`);
  }
  if (body.loopMetrics !== 1 || !body.histogram || !Array.isArray(body.series)) {
    throw new Error(`loopMetrics: ${url.href} is not a loop-metrics report (apps/lib/loop-metrics.js)`);
  }
  return body;
}

/** The series with the unfinished interval appended: what happened up to the moment of reading. */
export function loopSeries(snapshot: LoopMetricsSnapshot): LoopMetricsRow[] {
  return [...snapshot.series, snapshot.current];
}

/** A stretch of time in which the loop took no delay sample at all: it was blocked. */
export interface BlockedStretch {
  /** Seconds since the app started or was reset (the series' clock): when the stretch began and ended. */
  from: number;
  to: number;
  /** Its length, in ms: the raw delay sample that ended it. */
  ms: number;
  /** The real length of the row it ended (the tick was overdue too), in ms, against the series' nominal interval. */
  intervalMs: number;
  /** The whole seconds [k, k+1) of that clock inside the stretch: a monitor counting samples second by second would read zero in each. */
  emptySeconds: number[];
}

/**
 * The blocks longer than the series' interval, found from the series: the tick that writes a row is
 * itself a timer, so after such a block it is overdue and runs right after it, in the same timers
 * phase as the delay timer that records the block as one sample. The block therefore ends at the
 * row's `t` and lasted its `delayMaxMs` (raw: no sample was taken in between).
 */
export function blockedStretches(snapshot: LoopMetricsSnapshot): BlockedStretch[] {
  return loopSeries(snapshot)
    .filter((r) => r.delayMaxMs !== null && r.delayMaxMs > snapshot.intervalMs)
    .map((r) => {
      const from = r.t - (r.delayMaxMs as number) / 1000;
      const emptySeconds: number[] = [];
      for (let k = Math.ceil(from); k + 1 <= r.t; k++) emptySeconds.push(k);
      const ms = r.delayMaxMs as number;
      return { from: Math.round(from * 1000) / 1000, to: r.t, ms: ms, intervalMs: r.intervalMs, emptySeconds };
    });
}
