import type { AppRef } from "../apps/registry";
import { type StartOptions, withApp } from "../apps/start";
import { badOption } from "../core/errors";
import { settings } from "../core/settings";
import { type Spread, spread } from "../core/stats";
import { sumOutcomes } from "./outcome";
import { runLoad } from "./run";
import type { LoadOptions, LoadResult, Outcome } from "./types";

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

export interface FreshLoadResult extends Outcome {
  label: string;
  app: string;
  connections: number;
  /** One LoadResult per fresh app (each with repeats = 1). */
  runs: LoadResult[];
  /** req/s and CPU per request: median and range across the fresh apps. */
  reqPerSec: Spread;
  cpuPerRequestUs: Spread | null;
}

export async function freshLoad(ref: AppRef, opts: FreshLoadOptions = {}): Promise<FreshLoadResult> {
  const n = opts.runs ?? settings().repeats;
  if (!Number.isInteger(n) || n < 1) throw badOption("freshLoad", `runs must be an integer >= 1, got ${n}`);
  const { runs: _runs, start, ...load } = opts;
  const out: LoadResult[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      await withApp(
        ref,
        (app) =>
          runLoad({
            ...load,
            target: app,
            repeats: 1,
            live: (load.live ?? true) && i === 0, // one live chart is enough: the others look the same
            label: `${load.label ?? `${app.name} ${load.path ?? "/"}`} (fresh app ${i + 1} of ${n})`,
          }),
        start,
      ),
    );
  }
  const cpu = out.map((r) => r.cpuPerRequestUs?.median ?? null);
  return {
    label: load.label ?? `${out[0].app} ${load.path ?? "/"}`,
    app: out[0].app ?? "",
    connections: out[0].connections,
    runs: out,
    reqPerSec: spread(out.map((r) => r.reqPerSec.median)),
    cpuPerRequestUs: cpu.every((c) => c !== null) ? spread(cpu as number[]) : null,
    ...sumOutcomes(out),
  };
}

/** The figures every step of a notebook's summary shows, whichever way it was measured. */
export interface StepFigures extends Outcome {
  label: string;
  connections: number;
  reqPerSec: Spread;
  cpuPerRequestUs: Spread | null;
  /** p99 latency in ms: median and range across the measured runs. */
  p99Ms: Spread;
  /** Mean latency in ms over every answer of the measured runs. */
  meanLatencyMs: number;
  /** Runs in which the load generator was saturated, of all; null where its CPU was not read (WORKBOOK_READINGS=none). */
  saturatedRuns: number | null;
  runs: number;
}

/** Summarise a runLoad result (runs in one app) or a freshLoad result (one app per run) alike. */
export function stepFigures(r: LoadResult | FreshLoadResult, label: string = r.label): StepFigures {
  const loads: LoadResult[] = "fingerprint" in r ? [r] : r.runs;
  const runs = loads.flatMap((x) => x.runs);
  const answered = runs.reduce((a, x) => a + x.latencyMs.count, 0);
  if (runs.length === 0 || answered === 0) throw badOption("stepFigures", `"${label}" has no measured responses`);
  return {
    label,
    connections: r.connections,
    reqPerSec: r.reqPerSec,
    cpuPerRequestUs: r.cpuPerRequestUs,
    p99Ms: spread(runs.map((x) => x.latencyMs.p99)),
    meanLatencyMs: runs.reduce((a, x) => a + x.latencyMs.mean * x.latencyMs.count, 0) / answered,
    saturatedRuns: runs.some((x) => x.saturated === null) ? null : runs.filter((x) => x.saturated).length,
    runs: runs.length,
    totalRequests: r.totalRequests,
    errors: r.errors,
    timeouts: r.timeouts,
    non2xx: r.non2xx,
    statusCodes: r.statusCodes,
  };
}
