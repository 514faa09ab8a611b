import type * as hdr from "hdr-histogram-js";
import type { AppHandle } from "../apps/start";
import { generatorCpuMs, type Measured, type ProcessUsage, processTree, readTreeUsage } from "../apps/usage";
import { atCellEnd } from "../charts/display";
import { LiveChart } from "../charts/live";
import type { SecondSample } from "../charts/per-second";
import { badOption } from "../core/errors";
import { fingerprint, quotaContended } from "../core/fingerprint";
import { loopbackUrl } from "../core/loopback";
import { pinGenerator, pinning } from "../core/pinning";
import { limits, throttledBetween, throttling } from "../core/quota";
import { SATURATION_CPU_PERCENT, settings } from "../core/settings";
import { shellLine } from "../core/shell";
import { median, spread } from "../core/stats";
import { oneRun, outcomeOf, requestTimeoutSeconds } from "./autocannon";
import { checkResult, checkWarmup, preflight } from "./checks";
import { autocannonCommand, type GeneratorLoad, generatorFor, wrkCommand } from "./generator";
import { generatorFigures, histogram, summarise, sumOutcomes } from "./outcome";
import { loadReport, stoppedLoadReport } from "./report";
import type { LoadOptions, LoadResult, Outcome, RunFigures } from "./types";
import { wrkHistogram, wrkOutcome, wrkRun } from "./wrk";

/** The counters of one second: how many answers, and how much CPU the server and the generator used (null: not read). */
interface Second {
  requests: number;
  wallMs: number;
  serverCpuMs: number | null;
  generatorCpuMs: number | null;
  /**
   * The wall time the CPU times were read over, when it is not `wallMs`: wrk's requests cover its own
   * run, its CPU and the server's are read from its start to its exit, tens of ms more (a 1-s run read
   * 104-109 % of one core that way).
   */
  cpuWallMs?: number;
}

/**
 * A run's figures over its steady seconds: all but the first, when there are three or more (wrk's
 * whole run comes as one stretch). The generator is saturated when it used SATURATION_CPU_PERCENT of
 * each of its `generatorThreads` (autocannon has one; wrk one per CPU it was given); null when its CPU
 * could not be read in every steady second.
 */
export function steadyFigures(
  run: string,
  seconds: readonly Second[],
  latency: RunFigures["latencyMs"],
  generatorThreads = 1,
): RunFigures {
  const steady = seconds.length >= 3 ? seconds.slice(1) : seconds;
  const sum = (f: (s: Second) => number) => steady.reduce((a, s) => a + f(s), 0);
  const wallMs = sum((s) => s.wallMs);
  const requests = sum((s) => s.requests);
  const server = steady.every((s) => s.serverCpuMs !== null) ? sum((s) => s.serverCpuMs!) : null;
  const generator = steady.every((s) => s.generatorCpuMs !== null) ? sum((s) => s.generatorCpuMs!) : null;
  const cpuWallMs = sum((s) => s.cpuWallMs ?? s.wallMs);
  const generatorCpuPercent = generator === null || !cpuWallMs ? null : (generator / cpuWallMs) * 100;
  return {
    run,
    steadySeconds: Math.round(wallMs / 1000),
    reqPerSec: wallMs ? (requests * 1000) / wallMs : 0,
    cpuPerRequestUs: server === null || requests === 0 ? null : (server * 1000) / requests,
    serverCpuPercent: server === null || !cpuWallMs ? null : (server / cpuWallMs) * 100,
    generatorCpuPercent,
    saturated: generatorCpuPercent === null ? null : generatorCpuPercent / generatorThreads >= SATURATION_CPU_PERCENT,
    latencyMs: latency,
  };
}

interface Reading {
  t: number;
  server: ProcessUsage | null;
  generator: number | null;
}

/** The difference of two readings of one counter, or null when either is missing. */
const between = (a: number | null | undefined, b: number | null | undefined) => (a == null || b == null ? null : b - a);

/**
 * Reads the server's and the generator's counters at the edges of each second (apps/usage.ts: /proc,
 * the app's probe or ps). The readings are async; each is taken after the one before it, in order.
 */
class SecondCounter {
  private first: Reading | null = null;
  private last: Reading | null = null;
  /** The generator's CPU time, ms: this process's main thread (autocannon) or another process (wrk). */
  private generator: () => number | null = generatorCpuMs;
  rssPeakMB: number | null = null;
  threadsPeak: number | null = null;
  /** The server's processes: the app and any it started (workers), found as each run starts. */
  private pids: number[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  constructor(private readonly app: Measured | null) {}

  /** `threads`: count the server's threads too (a `ps` with portable readings: at a run's edges only). */
  private async read(threads: boolean): Promise<Reading> {
    const t = performance.now();
    const generator = this.generator();
    const server = this.app === null ? null : await readTreeUsage(this.app, this.pids, { threads });
    if (server?.rssMB != null) this.rssPeakMB = Math.max(this.rssPeakMB ?? 0, server.rssMB);
    if (server?.threads != null) this.threadsPeak = Math.max(this.threadsPeak ?? 0, server.threads);
    return { t, server, generator };
  }

  /** `step` after every step queued before it. */
  private enqueue<T>(step: () => Promise<T>): Promise<T> {
    const next = this.queue.then(step);
    this.queue = next.catch(() => {});
    return next;
  }

  /**
   * A run begins; `generator`: the generator's CPU time now, ms, as a function (wrk's process), or
   * null for this process's main thread (autocannon).
   */
  start(generator: (() => number | null) | null = null): Promise<void> {
    return this.enqueue(async () => {
      this.generator = generator ?? generatorCpuMs;
      this.pids = this.app === null ? [] : await processTree(this.app.pid);
      this.last = await this.read(true);
      this.first = this.last;
    });
  }

  /** The second since the previous call (or start()). */
  tick(requests: number): Promise<Second> {
    return this.enqueue(async () => {
      const now = await this.read(false);
      const prev = this.last ?? now;
      this.last = now;
      return {
        requests,
        wallMs: now.t - prev.t,
        serverCpuMs: between(prev.server?.cpuMs, now.server?.cpuMs),
        generatorCpuMs: between(prev.generator, now.generator),
      };
    });
  }

  /** The server's CPU time since start(), ms (null without a process to read), and the wall time since, ms. */
  serverCpuSinceStart(): Promise<{ cpuMs: number | null; wallMs: number }> {
    return this.enqueue(async () => {
      const now = await this.read(true);
      return { cpuMs: between(this.first?.server?.cpuMs, now.server?.cpuMs), wallMs: now.t - (this.first?.t ?? now.t) };
    });
  }

  /** Every reading queued so far has been taken. */
  settled(): Promise<void> {
    return this.enqueue(async () => {});
  }
}

/** A share of a second, % of one core; null when the CPU time was not read. */
const percentOf = (cpuMs: number | null, wallMs: number) => (cpuMs === null ? null : (cpuMs / wallMs) * 100);

/** What one run of either generator gives back. */
interface Pass {
  outcome: Outcome;
  /** µs latencies of the run's answers (wrk's: rebuilt from its percentiles). */
  latency: hdr.Histogram;
  bytesPerSec: number;
  /** The stretches the run's figures are taken over: autocannon's seconds, or wrk's whole run as one. */
  seconds: Second[];
  command: string;
  /** wrk's own report (null for autocannon, whose report is the harness's tables). */
  report: string | null;
  /** The generator's threads that can run at once (wrk's -t, at most its CPUs): saturation is judged per thread. */
  threads: number;
}

interface PassContext {
  url: string;
  load: GeneratorLoad;
  opts: LoadOptions;
  app: AppHandle | null;
  pinned: boolean;
  counter: SecondCounter;
  /** This run has started (after the warm-up: the first measured run's edge for onMeasured). */
  started(): void;
  /** One second of the run, for the series and the live chart. */
  second(s: Omit<SecondSample, "run">, sec: Second): void;
}

async function autocannonPass(c: PassContext): Promise<Pass> {
  const perSecond: Second[] = [];
  const latency = histogram();
  const result = await oneRun(c.url, c.load, c.opts, c.load.seconds, c.app, {
    onStart: () => {
      void c.counter.start();
      c.started();
    },
    onTick: (t) => {
      const latencyP50Ms = t.latency.getValueAtPercentile(50) / 1000;
      const latencyP99Ms = t.latency.getValueAtPercentile(99) / 1000;
      void c.counter.tick(t.requests).then((sec) => {
        perSecond.push(sec);
        c.second(
          {
            second: t.second,
            reqPerSec: t.requests,
            latencyP50Ms,
            latencyP99Ms,
            serverCpuPercent: percentOf(sec.serverCpuMs, sec.wallMs),
            generatorCpuPercent: percentOf(sec.generatorCpuMs, sec.wallMs),
          },
          sec,
        );
      });
    },
    onLatency: (us) => latency.recordValue(us),
  });
  await c.counter.settled();
  return {
    outcome: outcomeOf(result),
    latency,
    bytesPerSec: result.throughput.average,
    seconds: perSecond,
    command: shellLine(autocannonCommand(c.load, c.pinned)),
    report: null,
    threads: 1,
  };
}

async function wrkPass(c: PassContext): Promise<Pass> {
  const run = await wrkRun(
    c.load,
    { pinned: c.pinned, statuses: (c.opts.allowStatuses ?? []).length > 0, app: c.app },
    {
      onStart: async (cpuMs) => {
        await c.counter.start(cpuMs);
        c.started();
      },
      onTick: async (t) => {
        const sec = await c.counter.tick(t.requests ?? 0);
        c.second(
          {
            second: t.second,
            reqPerSec: t.requests,
            latencyP50Ms: null,
            latencyP99Ms: null,
            serverCpuPercent: percentOf(sec.serverCpuMs, sec.wallMs),
            generatorCpuPercent: percentOf(sec.generatorCpuMs, sec.wallMs),
          },
          sec,
        );
      },
    },
  );
  const f = run.figures;
  const wallMs = f.durationUs / 1000;
  const server = await c.counter.serverCpuSinceStart();
  return {
    outcome: wrkOutcome(f),
    latency: wrkHistogram(f),
    bytesPerSec: wallMs ? (f.bytes * 1000) / wallMs : 0,
    // wrk's figures cover its whole run (its connections open in a few milliseconds: no first second to drop).
    seconds: [
      {
        requests: f.requests,
        wallMs,
        serverCpuMs: server.cpuMs,
        // null where wrk's CPU could not be read: never 0, which would call it never saturated.
        generatorCpuMs: run.cpuMs,
        cpuWallMs: server.wallMs,
      },
    ],
    command: run.command,
    report: run.report,
    threads: run.parallel,
  };
}

/**
 * Load a loopback target: one warm-up run (discarded, but checked), then `repeats` measured runs of
 * `duration` seconds, with wrk or autocannon (`generator`; default: the measuring generator, wrk when
 * installed, see generator.ts). It reads the server's CPU time and memory from the server's own
 * counters and the generator's CPU, so each run reports req/s, the server's CPU time per request and
 * whether the generator was saturated: over autocannon's steady seconds, or over wrk's whole run.
 * Every result carries the command line that reproduces it. Throws LoadTestError on unexpected
 * statuses, errors or timeouts (in the warm-up or the measured runs), or an app that dies under load.
 *
 * One request goes first (the preflight). With autocannon, latency is recorded for every response at
 * microsecond resolution (autocannon's own percentiles are whole milliseconds); with wrk it is wrk's
 * distribution, corrected for coordinated omission, rebuilt from its percentiles each at its upper
 * value (so `mean` and `stdev` read a little above wrk's own: `stdev` 5-11 % above at 10 and 100
 * connections; wrk's own report is in `generator.report`). `path` (default "/") is resolved against
 * the target like a link; one that leads off loopback is refused before a request is sent.
 * `connections` default 100, `pipelining` default 1. wrk cannot run a `rate`, `pipelining`, `HEAD` or
 * a fraction of a second: those default to autocannon, and asking wrk for them throws `WB_BAD_OPTION`.
 * With wrk, `statusCodes` counts each status only when some non-2xx status is allowed; otherwise it
 * is `{ "2xx/3xx": n, "4xx/5xx": m }`, and a `4xx/5xx` fails the load.
 *
 * Codes: `WB_LOAD` (the preflight failed or answered an unexpected status, with a hint for a 404; the
 * warm-up or the measured runs saw unexpected statuses, errors or timeouts, or no response: then the
 * error carries the record in `result`), `WB_APP_DIED` (with its stderr), `WB_BAD_OPTION` (unless
 * `repeats >= 1` and `duration > 0`), `WB_NOT_LOOPBACK`.
 *
 * @example
 * const r = await wb.withApp("hello-http", (app) => wb.runLoad({ target: app, connections: 10 }));
 * wb.markdown(wb.markdownTable(here.runRows(r)));
 * wb.markdown(`${wb.saturationText(r)} Pinning: ${r.pinning.note}.`);
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
  const load = (seconds: number): GeneratorLoad => ({
    url,
    method: cfg.method,
    connections: cfg.connections,
    threads: opts.threads,
    pipelining: cfg.pipelining,
    seconds,
    timeoutSeconds: opts.timeout ?? requestTimeoutSeconds(seconds),
    headers: opts.headers,
    body: opts.body,
    rate: opts.rate,
  });
  const generator = generatorFor(
    { ...load(cfg.duration), seconds: Math.min(cfg.duration, cfg.warmup || cfg.duration) },
    opts.generator,
  );
  if (opts.threads !== undefined) {
    if (generator !== "wrk")
      throw badOption("runLoad", `threads: ${opts.threads} sets wrk's -t; ${generator} runs on one`);
    if (!(Number.isInteger(opts.threads) && opts.threads >= 1 && opts.threads <= cfg.connections))
      throw badOption(
        "runLoad",
        `threads must be a whole number from 1 to the connections (${cfg.connections}), got ${opts.threads}`,
      );
  }
  const label = opts.label ?? `${app ? app.name : target.host} ${target.pathname}`;
  const allowed = new Set(opts.allowStatuses ?? []);
  await preflight(url, cfg.method, opts, allowed, app);

  const pinned = opts.pin ?? app?.cpus != null;
  const release = pinGenerator(pinned);
  const live = new LiveChart(
    `${label} · ${generator}`,
    (opts.live ?? true) && cfg.warmup + cfg.duration * cfg.repeats > 3,
  );
  const measured: Measured | null = app ? { pid: app.pid, channel: app.channel } : null;
  const counter = new SecondCounter(measured);
  const rssStartMB = measured
    ? ((await readTreeUsage(measured, await processTree(measured.pid)))?.rssMB ?? null)
    : null;
  const quota = limits().cpu;
  const throttledBefore = throttling(quota);
  const series: SecondSample[] = [];
  const all = histogram();
  const runs: { figures: RunFigures; pass: Pass }[] = [];
  try {
    await live.ready(); // the renderer thread starts before the load does, not during it
    const plan: [string, number][] = [
      ...(cfg.warmup > 0 ? [["warm-up", cfg.warmup] as [string, number]] : []),
      ...Array.from({ length: cfg.repeats }, (_, i) => [`run ${i + 1}`, cfg.duration] as [string, number]),
    ];
    for (const [run, seconds] of plan) {
      const measured = run !== "warm-up";
      const context: PassContext = {
        url,
        load: load(seconds),
        opts,
        app,
        pinned,
        counter,
        started: () => {
          if (measured && runs.length === 0) opts.onMeasured?.("start", performance.now());
        },
        second: (sample) => {
          series.push({ run, ...sample });
          live.update(series, measured ? `${run} of ${cfg.repeats}` : "warm-up (discarded)");
        },
      };
      const pass = generator === "wrk" ? await wrkPass(context) : await autocannonPass(context);
      if (!measured) {
        checkWarmup(label, pass.outcome, allowed, opts.allowErrors ?? false, app);
        continue;
      }
      runs.push({ figures: steadyFigures(run, pass.seconds, summarise(pass.latency), pass.threads), pass });
      all.add(pass.latency);
    }
    opts.onMeasured?.("end", performance.now());
  } catch (e) {
    live.close();
    if (opts.report !== false) {
      const statuses = (opts.allowStatuses ?? []).length > 0;
      const wrk = wrkCommand(load(cfg.duration), pinned, statuses);
      const command =
        generator === "wrk" ? shellLine(wrk.argv, wrk.env) : shellLine(autocannonCommand(load(cfg.duration), pinned));
      const kind = generator === "wrk" ? "ran" : "equivalent";
      atCellEnd(
        stoppedLoadReport(e as Error, { label, command, serverCommand: app?.command ?? null, commandKind: kind }),
      );
    }
    throw e;
  } finally {
    release();
  }
  const throttled = throttledBetween(throttledBefore, throttling(quota));
  const figures = runs.map((r) => r.figures);
  const cpu = figures.map((f) => f.cpuPerRequestUs);
  const p = pinning();
  const fp = fingerprint();
  const contended = quotaContended(fp)
    ? `; contended: a CPU quota of ${fp.cpuQuota} CPU for ${fp.pinnedCores} cores`
    : "";
  const last = runs[runs.length - 1].pass;
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
    command: last.command,
    commandKind: generator === "wrk" ? "ran" : "equivalent",
    serverCommand: app?.command ?? null,
    reqPerSec: spread(figures.map((f) => f.reqPerSec)),
    cpuPerRequestUs: cpu.every((c) => c !== null) ? spread(cpu as number[]) : null,
    latencyMs: summarise(all),
    runs: figures,
    bytesPerSec: median(runs.map((r) => r.pass.bytesPerSec)),
    ...sumOutcomes(runs.map((r) => r.pass.outcome)),
    server:
      app && figures.every((f) => f.serverCpuPercent !== null)
        ? {
            cpuPercent: spread(figures.map((f) => f.serverCpuPercent!)),
            rssStartMB,
            rssPeakMB: counter.rssPeakMB,
            threadsPeak: counter.threadsPeak,
          }
        : null,
    generator: generatorFigures(generator, last.report, figures),
    throttled,
    pinning: {
      server: app?.cpus ?? null,
      generator: pinned && p.enabled ? p.generator : null,
      note:
        (app?.cpus != null && pinned && p.enabled
          ? `server on CPU ${app.cpus}, load generator on CPU ${p.generator}`
          : `not pinned: ${p.enabled ? "turned off for this load" : p.reason.replace(/^off: /, "")}`) + contended,
    },
    series,
    fingerprint: fp,
    startedAt: new Date().toISOString(),
  };
  live.finish(series, `done: median ${Math.round(record.reqPerSec.median)} req/s over ${record.repeats} runs`);
  checkResult(record, allowed, opts.allowErrors ?? false, app);
  if (opts.report !== false) atCellEnd(loadReport([record]));
  return record;
}
