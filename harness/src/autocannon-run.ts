import autocannon from "autocannon";
import * as hdr from "hdr-histogram-js";
import type { AppHandle } from "./apps";
import type { LatencySummary, LoadOptions } from "./load";
import { LoadTestError } from "./load-checks";

/** One autocannon run, with latency recorded per response at microsecond resolution. */

export const histogram = () => hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: 3 });
export const summarise = (h: hdr.Histogram): LatencySummary => ({
  p50: h.getValueAtPercentile(50) / 1000, p90: h.getValueAtPercentile(90) / 1000, p99: h.getValueAtPercentile(99) / 1000,
  mean: h.mean / 1000, max: h.maxValue / 1000,
});

/** A run's responses by status code, `{ "200": 1234 }` (autocannon keeps `{ count }` objects). */
export const statusCounts = (result: autocannon.Result): Record<string, number> =>
  Object.fromEntries(Object.entries(result.statusCodeStats ?? {}).map(([code, v]) => [code, (v as { count: number }).count]));

/**
 * The default per-request timeout of a run of `seconds`: the longer of autocannon's own 10 s and
 * the run's length + 1 s (11 s for the full profile's 10 s runs). A timeout shorter than the run cuts a slow server's slowest
 * answers off and drops them from the latency histogram, so the full profile's 10 s runs would
 * understate the very tail a slow server is measured for. The run's end still bounds every request.
 */
export const requestTimeoutSeconds = (seconds: number): number => Math.max(10, Math.ceil(seconds) + 1);

export interface RunConfig {
  method: string;
  connections: number;
  pipelining: number;
}

export function oneRun(url: string, cfg: RunConfig, opts: LoadOptions, seconds: number,
  app: AppHandle | null, onSecond: (second: number, count: number, sec: hdr.Histogram) => void, onLatency: (us: number) => void): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const sec = histogram();
    let second = 0;
    const instance = autocannon({
      url, method: cfg.method as autocannon.Request["method"], connections: cfg.connections, pipelining: cfg.pipelining,
      duration: seconds, headers: opts.headers, body: opts.body, timeout: opts.timeout ?? requestTimeoutSeconds(seconds),
      ...(opts.rate ? { overallRate: opts.rate } : {}),
    }, (err, result) => (err ? reject(err) : resolve(result)));
    const events = instance as unknown as NodeJS.EventEmitter;
    events.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => {
      const us = Math.max(1, Math.round(ms * 1000));
      sec.recordValue(us);
      onLatency(us);
    });
    events.on("tick", (t: { counter: number }) => {
      if (second >= seconds) return; // autocannon's closing tick
      onSecond(++second, t.counter, sec);
      sec.reset();
    });
    if (app) {
      void app.exited.then((info) => {
        instance.stop();
        reject(new LoadTestError(`app "${app.name}" died under load (code ${info.code}, signal ${info.signal}).\n--- stderr (tail) ---\n${app.stderr()}`));
      });
    }
  });
}

