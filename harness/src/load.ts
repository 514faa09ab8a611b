import { histogram, summarise, oneRun, statusCounts } from "./autocannon-run";
import { preflight, check, checkWarmup, LoadTestError } from "./load-checks";
import { loopbackUrl } from "./loopback";
import { settings } from "./settings";
import { spread, median, mergeCounts } from "./stats";
import { fingerprint } from "./fingerprint";
import { LiveChart, SecondSample } from "./live";
import type autocannon from "autocannon";
import { UsageSampler } from "./sampler";
import type { LoadOptions, LoadResult, LatencySummary } from "./load-types";

export * from "./load-types";

/** A generator above this share of one core is saturated: its numbers are a floor, not the server's limit. */
export const SATURATION_CPU_PERCENT = 85;

/**
 * Load a loopback target with autocannon: one warm-up run (discarded, but checked), then
 * `repeats` measured runs of `duration` seconds. Returns a tidy record; throws LoadTestError on
 * unexpected statuses, errors or timeouts (in the warm-up or the measured runs), or an app that
 * dies under load.
 */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const s = settings();
  const app = typeof opts.target === "string" ? null : opts.target;
  const base = typeof opts.target === "string" ? opts.target : opts.target.url;
  const target = loopbackUrl(base, opts.path ?? "/");
  const url = target.href;
  const cfg = {
    method: opts.method ?? "GET", connections: opts.connections ?? 100, pipelining: opts.pipelining ?? 1,
    duration: opts.duration ?? s.durationSeconds, warmup: opts.warmup ?? s.warmupSeconds, repeats: opts.repeats ?? s.repeats,
  };
  if (cfg.repeats < 1 || cfg.duration <= 0) throw new Error("runLoad: repeats must be >= 1 and duration > 0");
  const label = opts.label ?? `${app ? app.name : target.host} ${target.pathname}`;
  const allowed = new Set(opts.allowStatuses ?? []);
  await preflight(url, cfg.method, opts, allowed, app);

  const live = new LiveChart(label, (opts.live ?? true) && cfg.warmup + cfg.duration * cfg.repeats > 3);
  await live.ready(); // the renderer thread starts before the load does, not during it
  const sampler: UsageSampler | null = app ? new UsageSampler(app.pid, 250).start() : null;
  const rssStartMB = (await sampler?.sample())?.rssMB ?? 0;
  const series: SecondSample[] = [];
  const all = histogram();
  const runs: { reqPerSec: number; bytesPerSec: number; latency: LatencySummary; result: autocannon.Result }[] = [];
  let cpuMicros = 0;
  let wallMs = 0;
  const windows: [number, number][] = []; // the measured runs, on the sampler's clock
  try {
    const plan = [...(cfg.warmup > 0 ? [["warm-up", cfg.warmup] as const] : []), ...Array.from({ length: cfg.repeats }, (_, i) => [`run ${i + 1}`, cfg.duration] as const)];
    for (const [run, seconds] of plan) {
      const measured = run !== "warm-up";
      const runHist = histogram();
      const cpu0 = process.cpuUsage();
      const t0 = Date.now();
      const from = sampler?.now() ?? 0;
      const result = await oneRun(url, cfg, opts, seconds, app, (second, count, sec) => {
        const cpu = sampler?.latest()?.cpuPercent ?? null;
        series.push({ run, second, reqPerSec: count, latencyP50Ms: sec.getValueAtPercentile(50) / 1000, latencyP99Ms: sec.getValueAtPercentile(99) / 1000, serverCpuPercent: cpu });
        live.update(series, measured ? `${run} of ${cfg.repeats}` : "warm-up (discarded)");
      }, (us) => { runHist.recordValue(us); if (measured) all.recordValue(us); });
      if (!measured) {
        checkWarmup(label, { statusCodes: statusCounts(result), errors: result.errors, timeouts: result.timeouts }, allowed, opts.allowErrors ?? false, app);
        continue;
      }
      const cpu = process.cpuUsage(cpu0);
      cpuMicros += cpu.user + cpu.system;
      wallMs += Date.now() - t0;
      windows.push([from, sampler?.now() ?? 0]);
      runs.push({ reqPerSec: result.requests.average, bytesPerSec: result.throughput.average, latency: summarise(runHist), result });
    }
  } catch (e) {
    live.close();
    throw e;
  } finally {
    sampler?.stop();
  }
  // Server CPU from the samples taken in the measured runs (each covers the 250 ms before it); RSS at its peak over the whole test.
  const samples = sampler?.samples ?? [];
  const inRuns = samples.filter((u) => windows.some(([a, b]) => u.t > a + 0.2 && u.t <= b + 0.05));
  const usage = inRuns.length ? inRuns : samples;
  const generatorCpu = wallMs ? (cpuMicros / 1000 / wallMs) * 100 : 0;
  const statusCodes = mergeCounts(runs.map((r) => statusCounts(r.result)));
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
      rssStartMB, rssPeakMB: Math.max(...samples.map((u) => u.rssMB)),
      threadsPeak: samples.some((u) => u.threads !== null) ? Math.max(...samples.map((u) => u.threads ?? 0)) : null,
    } : null,
    generator: { cpuPercent: generatorCpu, saturated: generatorCpu >= SATURATION_CPU_PERCENT },
    series, fingerprint: fingerprint(), startedAt: new Date().toISOString(),
  };
  live.finish(series, `done: median ${Math.round(record.reqPerSec.median)} req/s over ${record.repeats} runs`);
  check(record, allowed, opts.allowErrors ?? false, app);
  return record;
}

export { LoadTestError };
