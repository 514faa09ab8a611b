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

/**
 * Read the `/__metrics` of an app carrying `apps/lib/loop-metrics.js` (the notebook-02 apps);
 * `reset: true` also starts its histograms and series again. Delays are Node's raw
 * `monitorEventLoopDelay` values: an idle loop reads about `resolutionMs`; subtract it. A block longer
 * than the interval shows as one row with `intervalMs` well above it, not as missing rows. Throws
 * `WB_NOT_LOOPBACK`, and a plain Error when the app does not answer 200 with a loop-metrics report.
 * contentionRounds reads it around each run with `metrics: true`; a notebook reads the same report
 * with a plain `fetch(`${app.url}/__metrics`)` (notebook 02).
 *
 * @example
 * await loopMetrics(app, { reset: true }); // before the run: histograms and series start again
 * const m = await loopMetrics(app); // after it: m.histogram.p99, m.series
 */
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
