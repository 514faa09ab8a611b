import { withApp, StartOptions } from "./apps";
import { AppRef } from "./registry";
import { runLoad, LoadOptions, LoadResult } from "./load";
import { settings } from "./settings";
import { spread, mergeCounts, Spread } from "./stats";

/**
 * Repeats for a server whose speed depends on its history (one that slows down with every
 * request it serves): each measured run gets a FRESH app, with the same warm-up and duration,
 * so the runs are alike and their spread is the machine's noise, not the server's age.
 */
export interface FreshLoadOptions extends Omit<LoadOptions, "target" | "repeats"> {
  /** Fresh apps to measure, one measured run each. Default: settings().repeats. */
  runs?: number;
  /** startApp options for every app. */
  start?: StartOptions;
}

export interface FreshLoadResult {
  label: string;
  app: string;
  connections: number;
  /** One LoadResult per fresh app (each with repeats = 1). */
  runs: LoadResult[];
  /** req/s: median and min-max across the fresh apps. */
  reqPerSec: Spread;
  /** Sum over the runs. */
  totalRequests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
}

export async function freshLoad(ref: AppRef, opts: FreshLoadOptions = {}): Promise<FreshLoadResult> {
  const n = opts.runs ?? settings().repeats;
  if (!Number.isInteger(n) || n < 1) throw new Error(`freshLoad: runs must be an integer >= 1, got ${n}`);
  const { runs: _runs, start, ...load } = opts;
  const out: LoadResult[] = [];
  for (let i = 0; i < n; i++) {
    out.push(await withApp(ref, (app) => runLoad({
      ...load, target: app, repeats: 1,
      live: (load.live ?? true) && i === 0, // one live chart is enough: the others look the same
      label: `${load.label ?? `${app.name} ${load.path ?? "/"}`} (fresh app ${i + 1} of ${n})`,
    }), start));
  }
  const sum = (f: (r: LoadResult) => number) => out.reduce((a, r) => a + f(r), 0);
  return {
    label: load.label ?? `${out[0].app} ${load.path ?? "/"}`, app: out[0].app ?? "", connections: out[0].connections, runs: out,
    reqPerSec: spread(out.map((r) => r.reqPerSec.median)),
    totalRequests: sum((r) => r.totalRequests), errors: sum((r) => r.errors), timeouts: sum((r) => r.timeouts), non2xx: sum((r) => r.non2xx),
    statusCodes: mergeCounts(out.map((r) => r.statusCodes)),
  };
}

/** The figures every step of a notebook's summary shows, whichever way it was measured. */
export interface StepFigures {
  label: string;
  connections: number;
  reqPerSec: Spread;
  /** p99 latency in ms: median and min-max across the measured runs. */
  p99Ms: Spread;
  /** Mean latency in ms over every response of the measured runs. */
  meanLatencyMs: number;
  totalRequests: number;
  errors: number;
  timeouts: number;
  non2xx: number;
  statusCodes: Record<string, number>;
}

/** Summarise a runLoad result (runs in one app) or a freshLoad result (one app per run) alike. */
export function stepFigures(r: LoadResult | FreshLoadResult, label: string = r.label): StepFigures {
  const runs: LoadResult[] = "runs" in r && Array.isArray(r.runs) ? r.runs : [r as LoadResult];
  const p99s = runs.flatMap((x) => x.latencyRuns.map((l) => l.p99));
  const requests = runs.reduce((a, x) => a + x.totalRequests, 0);
  if (p99s.length === 0 || requests === 0) throw new Error(`stepFigures: "${label}" has no measured responses`);
  const meanLatencyMs = runs.reduce((a, x) => a + x.latencyMs.mean * x.totalRequests, 0) / requests;
  return {
    label, connections: r.connections, reqPerSec: r.reqPerSec, p99Ms: spread(p99s), meanLatencyMs,
    totalRequests: r.totalRequests, errors: r.errors, timeouts: r.timeouts, non2xx: r.non2xx, statusCodes: r.statusCodes,
  };
}
