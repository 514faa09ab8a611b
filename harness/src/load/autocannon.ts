import autocannon from "autocannon";
import type * as hdr from "hdr-histogram-js";
import type { AppHandle } from "../apps/start";
import { shellLine } from "../core/shell";
import { diedUnderLoad } from "./checks";
import { autocannonCommand } from "./generator";
import { histogram } from "./outcome";
import { type Pass, type PassContext, percentOf, type Second } from "./seconds";
import type { LoadOptions, Outcome } from "./types";

/** One autocannon run, with latency recorded per response at microsecond resolution. */

/**
 * The default per-request timeout of a run of `seconds`: the longer of autocannon's own 10 s and
 * the run's length + 1 s. A timeout shorter than the run cuts a slow server's slowest answers off
 * and drops them from the latency histogram. The run's end still bounds every request.
 */
export const requestTimeoutSeconds = (seconds: number): number => Math.max(10, Math.ceil(seconds) + 1);

export interface RunConfig {
  method: string;
  connections: number;
  pipelining: number;
}

/** What one second of a run looked like, from autocannon's side. */
export interface TickInfo {
  /** 1-based. */
  second: number;
  requests: number;
  /** The second's latencies (µs). */
  latency: hdr.Histogram;
}

export interface RunHooks {
  /** Called when autocannon has started, before the first request: read the counters here. */
  onStart(): void;
  /** Called at the end of each second of the run. */
  onTick(t: TickInfo): void;
  /** Called with each response's latency in µs. */
  onLatency(us: number): void;
}

/** A run's answers as an Outcome (autocannon keeps status counts as `{ count }` objects). */
export function outcomeOf(result: autocannon.Result): Outcome {
  const statusCodes = Object.fromEntries(
    Object.entries(result.statusCodeStats ?? {}).map(([code, v]) => [code, (v as { count: number }).count]),
  );
  return {
    totalRequests: result.requests.total,
    errors: result.errors,
    timeouts: result.timeouts,
    non2xx: result.non2xx,
    statusCodes,
  };
}

export function oneRun(
  url: string,
  cfg: RunConfig,
  opts: LoadOptions,
  seconds: number,
  app: AppHandle | null,
  hooks: RunHooks,
): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    const sec = histogram();
    let second = 0;
    const instance = autocannon(
      {
        url,
        method: cfg.method as autocannon.Request["method"],
        connections: cfg.connections,
        pipelining: cfg.pipelining,
        duration: seconds,
        headers: opts.headers,
        body: opts.body,
        timeout: opts.timeout ?? requestTimeoutSeconds(seconds),
        ...(opts.rate ? { overallRate: opts.rate } : {}),
      },
      (err, result) => (err ? reject(err) : resolve(result)),
    );
    const events = instance as unknown as NodeJS.EventEmitter;
    events.once("start", () => hooks.onStart());
    events.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => {
      const us = Math.max(1, Math.round(ms * 1000));
      sec.recordValue(us);
      hooks.onLatency(us);
    });
    events.on("tick", (t: { counter: number }) => {
      if (second >= seconds) return; // autocannon's closing tick
      hooks.onTick({ second: ++second, requests: t.counter, latency: sec });
      sec.reset();
    });
    if (app) {
      void app.exited.then((info) => {
        instance.stop();
        reject(diedUnderLoad(app, info));
      });
    }
  });
}

/**
 * One run of autocannon for runLoad, in this process: its seconds counted as they come (the server's and
 * autocannon's CPU each second, for the series and the live chart), every latency recorded.
 */
export async function autocannonPass(c: PassContext): Promise<Pass> {
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
