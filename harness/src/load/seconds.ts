import type * as hdr from "hdr-histogram-js";
import type { AppHandle } from "../apps/start";
import { generatorCpuMs, type Measured, type ProcessUsage, processTree, readTreeUsage } from "../apps/usage";
import type { SecondSample } from "../charts/per-second";
import { SATURATION_CPU_PERCENT } from "../core/settings";
import type { GeneratorLoad } from "./generator";
import type { LoadOptions, Outcome, RunFigures } from "./types";

/**
 * A run's seconds, as both generators' passes count them (autocannon.ts, wrk.ts) and runLoad sums them:
 * the server's and the generator's CPU read at the edges of each second, and a run's figures over its
 * steady seconds.
 */

/** The counters of one second: how many answers, and how much CPU the server and the generator used (null: not read). */
export interface Second {
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
export class SecondCounter {
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
export const percentOf = (cpuMs: number | null, wallMs: number) => (cpuMs === null ? null : (cpuMs / wallMs) * 100);

/** What one run of either generator gives back. */
export interface Pass {
  outcome: Outcome;
  /** µs latencies of the run's answers (wrk's: rebuilt from its percentiles). */
  latency: hdr.Histogram;
  bytesPerSec: number;
  /** The stretches the run's figures are taken over: autocannon's seconds, or wrk's whole run as one. */
  seconds: Second[];
  command: string;
  /** wrk's own report (null for autocannon, whose report is the harness's tables). */
  report: string | null;
  /** The generator's threads: saturation is judged per thread. */
  threads: number;
}

export interface PassContext {
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
