import { histogram, summarise, oneRun } from "./autocannon-run";
import { preflight, check, LoadTestError } from "./load-checks";
import { assertLoopback } from "./loopback";
import { settings } from "./settings";
import { spread, median, Spread } from "./stats";
import { fingerprint, Fingerprint } from "./fingerprint";
import { LiveChart, SecondSample } from "./live";
import type { AppHandle } from "./apps";
import type autocannon from "autocannon";
import { UsageSampler } from "./sampler";

export interface LoadOptions {
  /** An app handle from startApp (its CPU and RSS are sampled) or a loopback URL. */
  target: AppHandle | string;
  path?: string;
  method?: "GET" | "POST" | "PUT" | "DELETE" | "HEAD";
  headers?: Record<string, string>;
  body?: string;
  connections?: number;
  pipelining?: number;
  /** Fixed request rate across all connections (req/s); corrects coordinated omission. */
  rate?: number;
  /** Seconds per measured run / warm-up; repeats. Defaults: the active profile (settings()). */
  duration?: number;
  warmup?: number;
  repeats?: number;
  /** Statuses other than 2xx that are expected (e.g. [304] or [503]); others fail the test. */
  allowStatuses?: number[];
  /** Socket errors and timeouts are expected (e.g. a shedding server); default false. */
  allowErrors?: boolean;
  /** Per-request timeout in seconds. Default: 10, or the run's length + 1 s when the run is longer (see requestTimeoutSeconds). */
  timeout?: number;
  /** Label for charts and results. Default: the app's name and path. */
  label?: string;
  /** Live chart while the test runs (only in a kernel, only when it lasts > 3 s). Default true. */
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
  bytesPerSec: number;
  totalRequests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  server: { cpuPercent: number; cpuPercentMax: number; rssStartMB: number; rssPeakMB: number; threadsPeak: number | null } | null;
  /** The load generator is this process: its CPU in % of one core during the measured runs. */
  generator: { cpuPercent: number; saturated: boolean };
  series: SecondSample[];
  fingerprint: Fingerprint;
  startedAt: string;
}

/** A generator above this share of one core is saturated: its numbers are a floor, not the server's limit. */
export const SATURATION_CPU_PERCENT = 85;

/**
 * Load a loopback target with autocannon: one warm-up run (discarded), then `repeats`
 * measured runs of `duration` seconds. Returns a tidy record; throws LoadTestError on
 * unexpected statuses, errors, or an app that dies under load.
 */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const s = settings();
  const app = typeof opts.target === "string" ? null : opts.target;
  const base = typeof opts.target === "string" ? opts.target : opts.target.url;
  const url = new URL(opts.path ?? "/", assertLoopback(base)).toString();
  const cfg = {
    method: opts.method ?? "GET", connections: opts.connections ?? 100, pipelining: opts.pipelining ?? 1,
    duration: opts.duration ?? s.durationSeconds, warmup: opts.warmup ?? s.warmupSeconds, repeats: opts.repeats ?? s.repeats,
  };
  if (cfg.repeats < 1 || cfg.duration <= 0) throw new Error("runLoad: repeats must be >= 1 and duration > 0");
  const label = opts.label ?? `${app ? app.name : new URL(url).host} ${new URL(url).pathname}`;
  const allowed = new Set(opts.allowStatuses ?? []);
  await preflight(url, cfg.method, opts, allowed, app);

  const sampler: UsageSampler | null = app ? new UsageSampler(app.pid, 250).start() : null;
  const rssStartMB = (await sampler?.sample())?.rssMB ?? 0;
  const live = new LiveChart(label, (opts.live ?? true) && cfg.warmup + cfg.duration * cfg.repeats > 3);
  const series: SecondSample[] = [];
  const all = histogram();
  const runs: { reqPerSec: number; bytesPerSec: number; latency: LatencySummary; result: autocannon.Result }[] = [];
  let cpuMicros = 0;
  let wallMs = 0;
  try {
    const plan = [...(cfg.warmup > 0 ? [["warm-up", cfg.warmup] as const] : []), ...Array.from({ length: cfg.repeats }, (_, i) => [`run ${i + 1}`, cfg.duration] as const)];
    for (const [run, seconds] of plan) {
      const measured = run !== "warm-up";
      const runHist = histogram();
      const cpu0 = process.cpuUsage();
      const t0 = Date.now();
      const result = await oneRun(url, cfg, opts, seconds, app, (second, count, sec) => {
        const cpu = sampler?.latest()?.cpuPercent ?? null;
        series.push({ run, second, reqPerSec: count, latencyP50Ms: sec.getValueAtPercentile(50) / 1000, latencyP99Ms: sec.getValueAtPercentile(99) / 1000, serverCpuPercent: cpu });
        live.update(series, measured ? `${run} of ${cfg.repeats}` : "warm-up (discarded)");
      }, (us) => { runHist.recordValue(us); if (measured) all.recordValue(us); });
      if (!measured) continue;
      const cpu = process.cpuUsage(cpu0);
      cpuMicros += cpu.user + cpu.system;
      wallMs += Date.now() - t0;
      runs.push({ reqPerSec: result.requests.average, bytesPerSec: result.throughput.average, latency: summarise(runHist), result });
    }
  } finally {
    sampler?.stop();
  }
  const usage = sampler?.samples ?? [];
  const generatorCpu = wallMs ? (cpuMicros / 1000 / wallMs) * 100 : 0;
  const statusCodes: Record<string, number> = {};
  for (const r of runs) for (const [code, v] of Object.entries(r.result.statusCodeStats ?? {})) statusCodes[code] = (statusCodes[code] ?? 0) + (v as { count: number }).count;
  const sum = (f: (r: autocannon.Result) => number) => runs.reduce((a, r) => a + f(r.result), 0);
  const record: LoadResult = {
    label, app: app?.name ?? null, url, method: cfg.method, connections: cfg.connections, pipelining: cfg.pipelining, rate: opts.rate ?? null,
    durationSeconds: cfg.duration, warmupSeconds: cfg.warmup, repeats: cfg.repeats,
    reqPerSec: spread(runs.map((r) => r.reqPerSec)),
    latencyMs: summarise(all),
    latencyRuns: runs.map((r) => r.latency),
    bytesPerSec: median(runs.map((r) => r.bytesPerSec)),
    totalRequests: sum((r) => r.requests.total),
    errors: sum((r) => r.errors), timeouts: sum((r) => r.timeouts), non2xx: sum((r) => r.non2xx),
    statusCodes,
    server: usage.length ? {
      cpuPercent: median(usage.map((u) => u.cpuPercent)), cpuPercentMax: Math.max(...usage.map((u) => u.cpuPercent)),
      rssStartMB, rssPeakMB: Math.max(...usage.map((u) => u.rssMB)),
      threadsPeak: usage.some((u) => u.threads !== null) ? Math.max(...usage.map((u) => u.threads ?? 0)) : null,
    } : null,
    generator: { cpuPercent: generatorCpu, saturated: generatorCpu >= SATURATION_CPU_PERCENT },
    series, fingerprint: fingerprint(), startedAt: new Date().toISOString(),
  };
  live.finish(series, `done: median ${Math.round(record.reqPerSec.median)} req/s over ${record.repeats} runs`);
  check(record, allowed, opts.allowErrors ?? false, app);
  return record;
}


export { LoadTestError };
