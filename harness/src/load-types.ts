import type { AppHandle } from "./apps";
import type { Spread } from "./stats";
import type { Fingerprint } from "./fingerprint";
import type { SecondSample } from "./live-chart";

/** What runLoad takes and returns (load.ts). */

export interface LoadOptions {
  /** An app handle from startApp (its CPU and RSS are sampled) or a loopback URL. */
  target: AppHandle | string;
  path?: string;
  method?: "GET" | "POST" | "PUT" | "DELETE" | "HEAD";
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  pipelining?: number;
  /**
   * A cap on the total request rate (req/s), split over the connections (fewer connections when
   * it is below their number); each connection spends its share at the start of every second.
   * Latency still counts from when each request was sent: it is NOT corrected for coordinated
   * omission (autocannon corrects only its own histogram, which the harness does not read).
   * For evenly spaced requests with latency from when they were due, use pacedLoad.
   */
  rate?: number;
  /** Seconds per measured run / warm-up; repeats. Defaults: the active profile (settings()). */
  duration?: number;
  warmup?: number;
  repeats?: number;
  /** Statuses other than 2xx that are expected (e.g. [304] or [503]); others fail the test. */
  allowStatuses?: number[];
  /** Socket errors and timeouts are expected (e.g. a shedding server); default false. */
  allowErrors?: boolean;
  /** Per-request timeout in seconds. Default: the longer of 10 s and the run's length + 1 s (see requestTimeoutSeconds). */
  timeout?: number;
  /** Label for charts and results. Default: the app's name and path. */
  label?: string;
  /**
   * Live chart while the test runs (only in a kernel, only when it lasts > 3 s), drawn in a worker
   * thread every 2 s: a little CPU beside the generator (see harness/README.md). Default true.
   */
  live?: boolean;
}

export interface LatencySummary {
  p50: number;
  p90: number;
  p99: number;
  mean: number;
  max: number;
}

export interface LoadResult {
  label: string;
  app: string | null;
  url: string;
  method: string;
  connections: number;
  pipelining: number;
  rate: number | null;
  durationSeconds: number;
  warmupSeconds: number;
  repeats: number;
  /** Requests per second: median and min-max across the measured runs. */
  reqPerSec: Spread;
  /** Latency in ms over every response of the measured runs (microsecond resolution). */
  latencyMs: LatencySummary;
  /** Per-run latency, to see the spread of the tail. */
  latencyRuns: LatencySummary[];
  /** Bytes per second of 2xx responses (autocannon's count): the median of the measured runs' averages. */
  bytesPerSec: number;
  /** Summed over the measured runs, as autocannon counts them (errors include timeouts). */
  totalRequests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  /**
   * An app target's usage, sampled every 250 ms: CPU (% of one core; median and max) over the
   * measured runs; RSS before the warm-up and at its peak, threads at their peak, over the whole test.
   */
  server: { cpuPercent: number; cpuPercentMax: number; rssStartMB: number; rssPeakMB: number; threadsPeak: number | null } | null;
  /**
   * The load generator is this process: its CPU (every thread, the live chart's renderer too) in
   * % of one core during the measured runs.
   */
  generator: { cpuPercent: number; saturated: boolean };
  series: SecondSample[];
  fingerprint: Fingerprint;
  startedAt: string;
}
