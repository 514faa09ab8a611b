import type { AppHandle } from "../apps/start";
import type { SecondSample } from "../charts/per-second";
import type { Fingerprint } from "../core/fingerprint";
import type { GeneratorName } from "../core/generator";
import type { Throttling } from "../core/quota";
import type { Spread } from "../core/stats";

/** What runLoad takes and returns (run.ts), and the counts every kind of load shares (outcome.ts). */

export interface LoadOptions {
  /** An app handle from startApp (its CPU and memory are read) or a loopback URL. */
  target: AppHandle | string;
  path?: string;
  method?: "GET" | "POST" | "PUT" | "PATCH" | "DELETE" | "HEAD";
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  /**
   * wrk's threads (`-t`), as a study's command sets them. OPTIONAL; default one per CPU the generator
   * is pinned to (else half the machine's), at most one per connection. Threads beyond the generator's
   * CPUs take turns on them: saturation is judged on the CPUs they can use. Throws `WB_BAD_OPTION`
   * with autocannon (one thread) and above the connections (wrk gives each thread at least one).
   */
  threads?: number;
  pipelining?: number;
  /**
   * A cap on the total request rate (req/s), split over the connections (fewer connections when
   * it is below their number); each connection spends its share at the start of every second.
   * Latency still counts from when each request was sent: it is NOT corrected for coordinated
   * omission. For evenly spaced requests with latency from when they were due, use pacedLoad.
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
  /** Per-request timeout in seconds. Default: the longer of 10 s and the run's length + 1 s. */
  timeout?: number;
  /** Label for charts and results. Default: the app's name and path. */
  label?: string;
  /** Live chart while the test runs (only in a kernel, only when it lasts > 3 s). Default true. */
  live?: boolean;
  /**
   * Print, under the cell that ran it (in a kernel), what set the load's pace and the command that
   * reproduces it (load/report.ts). Default true; false for a load the cell reports itself.
   */
  report?: boolean;
  /** Pin the load generator to its own core. Default: when the app is pinned (see pinning()). */
  pin?: boolean;
  /**
   * The load generator: "wrk" (a process of its own, C: the measuring one) or "autocannon" (in this
   * process, with each second's latency on the live chart). Default: the measuring generator, wrk
   * when it is installed (measuringGenerator()), autocannon for what wrk cannot do (a rate, pipelining).
   */
  generator?: GeneratorName;
  /**
   * Called as the measured runs begin (after the warm-up) and as they end (before the final chart is
   * drawn), with this process's performance.now(): for a tool that cuts its own samples to the load
   * (the diagnosis), leaving out set-up and drawing, during which the app waits.
   */
  onMeasured?: (edge: "start" | "end", at: number) => void;
}

/** Latency percentiles in ms, and how many answers they summarise. */
export interface LatencySummary {
  count: number;
  p50: number;
  p75: number;
  p90: number;
  p99: number;
  mean: number;
  /**
   * Standard deviation, ms, of the same histogram. For wrk, whose latencies come as percentiles, the
   * histogram is rebuilt from them (1 % apart, finer in the tail, each at its upper value), so this
   * reads a little above the `Stdev` wrk prints (5-11 % above it, at 10 and 100 connections).
   */
  stdev: number;
  max: number;
}

/** What became of the requests of a load: the counts every kind of load reports, summed by sumOutcomes(). */
export interface Outcome {
  /** Answers received (any status). */
  totalRequests: number;
  /** Socket errors and timeouts (autocannon counts a timeout as an error too). */
  errors: number;
  timeouts: number;
  /** Answers with a status outside 200-299. */
  non2xx: number;
  statusCodes: Record<string, number>;
}

/** One measured run of a load test, over its steady seconds. */
export interface RunFigures {
  run: string;
  /** The seconds the figures below cover: every second of an autocannon run but the first, for runs of 3 s or more; all of a wrk run. */
  steadySeconds: number;
  reqPerSec: number;
  /** The server's CPU time (user + system, all threads) per answered request, in µs; null without a process to read. */
  cpuPerRequestUs: number | null;
  /** The server's CPU, % of one core; null without a process to read. */
  serverCpuPercent: number | null;
  /** The load generator's CPU (autocannon: its main thread; wrk: every thread), % of one core; null where it could not be read (WORKBOOK_READINGS=none). */
  generatorCpuPercent: number | null;
  /** The generator at or above SATURATION_CPU_PERCENT (of each of its threads): this run's req/s is its limit, not the server's. null: its CPU was not read, so unknown. */
  saturated: boolean | null;
  latencyMs: LatencySummary;
}

export interface LoadResult extends Outcome {
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
  /** The command line that reproduces a measured run, from the workbook's folder (wrk's, or autocannon's CLI). */
  command: string;
  /** "ran": `command` is what ran (wrk, a process of its own); "equivalent": autocannon's CLI for the API call that ran in this process. */
  commandKind: "ran" | "equivalent";
  /** How the server was started, from the workbook's folder (AppHandle.command); null for a URL target. */
  serverCommand: string | null;
  /** Requests per second over each run's steady seconds: median and range across the runs. What users feel, and a bound when the generator was saturated. */
  reqPerSec: Spread;
  /** Server CPU time per request, µs: median and range across the runs. It measures the server even when the generator set the pace. */
  cpuPerRequestUs: Spread | null;
  /** Latency over every answer of the measured runs (microsecond resolution). */
  latencyMs: LatencySummary;
  /** Each measured run. */
  runs: RunFigures[];
  /** Bytes per second read (transfer/s: autocannon's count of response bytes, wrk's of everything read): the median of the runs. */
  bytesPerSec: number;
  /**
   * An app target's CPU (% of one core, across runs), RSS before the warm-up and at its peak, threads
   * at their peak (with portable readings, counted as each run starts). null for a URL target or where
   * the server's CPU could not be read; each of the other three is null on its own where its source
   * has none (e.g. threads with WORKBOOK_READINGS=portable and no ps).
   */
  server: {
    cpuPercent: Spread;
    rssStartMB: number | null;
    rssPeakMB: number | null;
    threadsPeak: number | null;
  } | null;
  /**
   * The load generator: which, its own report (wrk's text, as a terminal shows it; null for
   * autocannon), its CPU across runs and how many runs it was saturated in. The last three are null
   * where its CPU could not be read (WORKBOOK_READINGS=none): saturation unknown, never 0.
   */
  generator: {
    name: GeneratorName;
    report: string | null;
    cpuPercent: Spread | null;
    saturated: boolean | null;
    saturatedRuns: number | null;
  };
  /** Periods the session's CPU quota held it back during the load (warm-up included), from cpu.stat; null without a quota. */
  throttled: Throttling | null;
  /** The CPUs the server and the generator ran on (null: not pinned), and a sentence for prose. */
  pinning: { server: string | null; generator: string | null; note: string };
  /** Per second, the warm-up's included (run "warm-up"). */
  series: SecondSample[];
  fingerprint: Fingerprint;
  startedAt: string;
}
