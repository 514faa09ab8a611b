import type autocannon from "autocannon";
import type { AppHandle } from "../apps/start";
import { generatorCpuMs, type ProcessUsage, readUsage } from "../apps/usage";
import { LiveChart } from "../charts/live";
import type { SecondSample } from "../charts/per-second";
import { badOption } from "../core/errors";
import { fingerprint } from "../core/fingerprint";
import { loopbackUrl } from "../core/loopback";
import { pinGenerator, pinning } from "../core/pinning";
import { SATURATION_CPU_PERCENT, settings } from "../core/settings";
import { median, spread } from "../core/stats";
import { oneRun, outcomeOf } from "./autocannon";
import { checkResult, checkWarmup, preflight } from "./checks";
import { histogram, summarise, sumOutcomes } from "./outcome";
import type { LoadOptions, LoadResult, RunFigures } from "./types";

/** The counters of one second: how many answers, and how much CPU the server and the generator used. */
interface Second {
  requests: number;
  wallMs: number;
  serverCpuMs: number | null;
  generatorCpuMs: number;
}

/** A run's figures over its steady seconds: all but the first, when there are three or more. */
export function steadyFigures(run: string, seconds: readonly Second[], latency: RunFigures["latencyMs"]): RunFigures {
  const steady = seconds.length >= 3 ? seconds.slice(1) : seconds;
  const sum = (f: (s: Second) => number) => steady.reduce((a, s) => a + f(s), 0);
  const wallMs = sum((s) => s.wallMs);
  const requests = sum((s) => s.requests);
  const server = steady.every((s) => s.serverCpuMs !== null) ? sum((s) => s.serverCpuMs!) : null;
  const generatorCpuPercent = wallMs ? (sum((s) => s.generatorCpuMs) / wallMs) * 100 : 0;
  return {
    run,
    steadySeconds: steady.length,
    reqPerSec: wallMs ? (requests * 1000) / wallMs : 0,
    cpuPerRequestUs: server === null || requests === 0 ? null : (server * 1000) / requests,
    serverCpuPercent: server === null || !wallMs ? null : (server / wallMs) * 100,
    generatorCpuPercent,
    saturated: generatorCpuPercent >= SATURATION_CPU_PERCENT,
    latencyMs: latency,
  };
}

/** Reads the server's and the generator's counters at the edges of each second. */
class SecondCounter {
  private last: { t: number; server: ProcessUsage | null; generator: number } | null = null;
  rssPeakMB = 0;
  threadsPeak = 0;
  constructor(private readonly pid: number | null) {}

  private read() {
    const server = this.pid === null ? null : readUsage(this.pid);
    if (server) {
      this.rssPeakMB = Math.max(this.rssPeakMB, server.rssMB);
      this.threadsPeak = Math.max(this.threadsPeak, server.threads);
    }
    return { t: performance.now(), server, generator: generatorCpuMs() };
  }

  start(): void {
    this.last = this.read();
  }

  /** The second since the previous call (or start()). */
  tick(requests: number): Second {
    const now = this.read();
    const prev = this.last ?? now;
    this.last = now;
    return {
      requests,
      wallMs: now.t - prev.t,
      serverCpuMs: now.server && prev.server ? now.server.cpuMs - prev.server.cpuMs : null,
      generatorCpuMs: now.generator - prev.generator,
    };
  }
}

/**
 * Load a loopback target with autocannon: one warm-up run (discarded, but checked), then `repeats`
 * measured runs of `duration` seconds. At the edge of every second it reads the server's CPU time
 * and memory from the server's own counters and the generator's CPU, so each run reports req/s,
 * the server's CPU time per request and whether the generator was saturated, over its steady
 * seconds. Throws LoadTestError on unexpected statuses, errors or timeouts (in the warm-up or the
 * measured runs), or an app that dies under load.
 */
export async function runLoad(opts: LoadOptions): Promise<LoadResult> {
  const s = settings();
  const app: AppHandle | null = typeof opts.target === "string" ? null : opts.target;
  const target = loopbackUrl(typeof opts.target === "string" ? opts.target : opts.target.url, opts.path ?? "/");
  const url = target.href;
  const cfg = {
    method: opts.method ?? "GET",
    connections: opts.connections ?? 100,
    pipelining: opts.pipelining ?? 1,
    duration: opts.duration ?? s.durationSeconds,
    warmup: opts.warmup ?? s.warmupSeconds,
    repeats: opts.repeats ?? s.repeats,
  };
  if (!(cfg.repeats >= 1) || !(cfg.duration > 0)) throw badOption("runLoad", "repeats must be >= 1 and duration > 0");
  const label = opts.label ?? `${app ? app.name : target.host} ${target.pathname}`;
  const allowed = new Set(opts.allowStatuses ?? []);
  await preflight(url, cfg.method, opts, allowed, app);

  const pinned = opts.pin ?? app?.cpus != null;
  const release = pinGenerator(pinned);
  const live = new LiveChart(label, (opts.live ?? true) && cfg.warmup + cfg.duration * cfg.repeats > 3);
  const counter = new SecondCounter(app?.pid ?? null);
  const rssStartMB = app ? (readUsage(app.pid)?.rssMB ?? NaN) : NaN;
  const series: SecondSample[] = [];
  const all = histogram();
  const runs: { figures: RunFigures; result: autocannon.Result }[] = [];
  try {
    await live.ready(); // the renderer thread starts before the load does, not during it
    const plan: [string, number][] = [
      ...(cfg.warmup > 0 ? [["warm-up", cfg.warmup] as [string, number]] : []),
      ...Array.from({ length: cfg.repeats }, (_, i) => [`run ${i + 1}`, cfg.duration] as [string, number]),
    ];
    for (const [run, seconds] of plan) {
      const measured = run !== "warm-up";
      const runHist = histogram();
      const perSecond: Second[] = [];
      const result = await oneRun(url, cfg, opts, seconds, app, {
        onStart: () => {
          counter.start();
          if (measured && runs.length === 0) opts.onMeasured?.("start", performance.now());
        },
        onTick: (t) => {
          const sec = counter.tick(t.requests);
          perSecond.push(sec);
          series.push({
            run,
            second: t.second,
            reqPerSec: t.requests,
            latencyP50Ms: t.latency.getValueAtPercentile(50) / 1000,
            latencyP99Ms: t.latency.getValueAtPercentile(99) / 1000,
            serverCpuPercent: sec.serverCpuMs === null ? null : (sec.serverCpuMs / sec.wallMs) * 100,
            generatorCpuPercent: (sec.generatorCpuMs / sec.wallMs) * 100,
          });
          live.update(series, measured ? `${run} of ${cfg.repeats}` : "warm-up (discarded)");
        },
        onLatency: (us) => {
          runHist.recordValue(us);
          if (measured) all.recordValue(us);
        },
      });
      if (!measured) {
        checkWarmup(label, outcomeOf(result), allowed, opts.allowErrors ?? false, app);
        continue;
      }
      runs.push({ figures: steadyFigures(run, perSecond, summarise(runHist)), result });
    }
    opts.onMeasured?.("end", performance.now());
  } catch (e) {
    live.close();
    throw e;
  } finally {
    release();
  }
  const figures = runs.map((r) => r.figures);
  const cpu = figures.map((f) => f.cpuPerRequestUs);
  const p = pinning();
  const record: LoadResult = {
    label,
    app: app?.name ?? null,
    url,
    method: cfg.method,
    connections: cfg.connections,
    pipelining: cfg.pipelining,
    rate: opts.rate ?? null,
    durationSeconds: cfg.duration,
    warmupSeconds: cfg.warmup,
    repeats: cfg.repeats,
    reqPerSec: spread(figures.map((f) => f.reqPerSec)),
    cpuPerRequestUs: cpu.every((c) => c !== null) ? spread(cpu as number[]) : null,
    latencyMs: summarise(all),
    runs: figures,
    bytesPerSec: median(runs.map((r) => r.result.throughput.average)),
    ...sumOutcomes(runs.map((r) => outcomeOf(r.result))),
    server:
      app && figures.every((f) => f.serverCpuPercent !== null)
        ? {
            cpuPercent: spread(figures.map((f) => f.serverCpuPercent!)),
            rssStartMB,
            rssPeakMB: counter.rssPeakMB,
            threadsPeak: counter.threadsPeak,
          }
        : null,
    generator: {
      cpuPercent: spread(figures.map((f) => f.generatorCpuPercent)),
      saturated: figures.some((f) => f.saturated),
      saturatedRuns: figures.filter((f) => f.saturated).length,
    },
    pinning: {
      server: app?.cpus ?? null,
      generator: pinned && p.enabled ? p.generator : null,
      note:
        app?.cpus != null && pinned && p.enabled
          ? `server on CPU ${app.cpus}, load generator on CPU ${p.generator}`
          : `not pinned: ${p.enabled ? "turned off for this load" : p.reason.replace(/^off: /, "")}`,
    },
    series,
    fingerprint: fingerprint(),
    startedAt: new Date().toISOString(),
  };
  live.finish(series, `done: median ${Math.round(record.reqPerSec.median)} req/s over ${record.repeats} runs`);
  checkResult(record, allowed, opts.allowErrors ?? false, app);
  return record;
}
