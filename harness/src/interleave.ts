import { startApp, AppHandle, StartOptions } from "./apps";
import type { AppRef } from "./registry";
import { checkRoutes, ConformanceResult, RouteCheck, DEFAULT_CHECKS } from "./conformance";
import { runLoad, LoadOptions, LoadResult } from "./load";
import { settings } from "./settings";
import { spread, median, mergeCounts } from "./stats";

/** One app and the load to run against it in every round. */
export interface InterleaveTarget {
  /** Unique key for the result map (e.g. "fastify", "node-http@node22"). */
  key: string;
  app: AppRef;
  /** OPTIONAL startApp options (runtime, env...). */
  start?: StartOptions;
  /** OPTIONAL route checks. Default: the /hello, /json, /blog and 404 checks of apps/frameworks/. */
  checks?: readonly RouteCheck[];
  /** runLoad options except target and repeats; the warm-up and the live chart are for the first round only. */
  load: Omit<LoadOptions, "target" | "repeats">;
}

export interface InterleavedRun {
  key: string;
  app: string;
  /** null when the app did not start. */
  conformance: ConformanceResult | null;
  /** Every round combined by combineLoads(); null when no round completed. */
  load: LoadResult | null;
  /** The rounds one by one (one measured run each). */
  rounds: LoadResult[];
  /** Why the target stopped early: the start error, the failed routes, or the load error. */
  error: string | null;
}

/**
 * Start every target's app, check its routes, then load the healthy ones in rounds: round 1
 * runs each target once, round 2 again in a rotated order, and so on, so that a burst of other
 * activity on the machine lands on several targets' runs rather than on all runs of one. Each
 * target is warmed up before its first round only (a live chart, if asked for, is drawn then
 * too). `rounds: 0` only starts and checks every app. A target that fails to start, fails a route
 * check or fails a load is reported with its error and dropped from later rounds; the others go
 * on. Every app is stopped at the end, whatever happens. `rounds` defaults to settings().repeats.
 */
export async function interleavedLoads(targets: InterleaveTarget[], opts: { rounds?: number } = {}): Promise<Map<string, InterleavedRun>> {
  const rounds = opts.rounds ?? settings().repeats;
  if (new Set(targets.map((t) => t.key)).size !== targets.length) throw new Error("interleavedLoads: target keys must be unique");
  const runs = new Map<string, InterleavedRun>();
  const handles = new Map<string, AppHandle>();
  try {
    for (const t of targets) {
      const run: InterleavedRun = { key: t.key, app: typeof t.app === "string" ? t.app : t.app.name ?? t.app.entry, conformance: null, load: null, rounds: [], error: null };
      runs.set(t.key, run);
      try {
        const handle = await startApp(t.app, t.start);
        handles.set(t.key, handle);
        run.conformance = await checkRoutes(handle.url, t.checks ?? DEFAULT_CHECKS);
        if (!run.conformance.ok) {
          run.error = `wrong answers, not loaded: ${run.conformance.routes.filter((r) => !r.ok).map((r) => `${r.method} ${r.path}: ${r.error}`).join("; ")}`;
        }
      } catch (err) {
        run.error = (err as Error).message;
      }
    }
    for (let round = 0; round < rounds; round++) {
      const order = targets.map((_, i) => targets[(i + round) % targets.length]);
      for (const t of order) {
        const run = runs.get(t.key)!;
        const handle = handles.get(t.key);
        if (run.error !== null || !handle) continue;
        try {
          run.rounds.push(await runLoad({
            ...t.load, target: handle, repeats: 1, warmup: round === 0 ? t.load.warmup : 0, live: round === 0 ? t.load.live : false,
          }));
        } catch (err) {
          run.error = `round ${round + 1}: ${(err as Error).message}`;
        }
      }
    }
  } finally {
    await Promise.all([...handles.values()].map((h) => h.stop()));
  }
  for (const run of runs.values()) run.load = run.rounds.length ? combineLoads(run.rounds) : null;
  return runs;
}

/** Round-by-round ratios of two targets measured in the same rounds, and their median. */
export interface RoundRatios {
  /** The median of `rounds`: the ratio the notebooks and checks report. */
  median: number;
  min: number;
  max: number;
  /** value(a) / value(b) for each round both completed, in round order. */
  rounds: number[];
}

/**
 * a / b round by round: the i-th result of each ran in the same round of interleavedLoads(), close
 * in time, so a burst of other activity on the machine spoils one round of both rather than all
 * runs of one. `value` picks the figure (default: req/s). null when either has no round.
 */
export function roundRatios(a: readonly LoadResult[], b: readonly LoadResult[],
  value: (r: LoadResult) => number = (r) => r.reqPerSec.median): RoundRatios | null {
  const n = Math.min(a.length, b.length);
  if (n === 0) return null;
  const rounds = Array.from({ length: n }, (_, i) => value(a[i]) / value(b[i]));
  const s = spread(rounds);
  return { median: s.median, min: s.min, max: s.max, rounds };
}

/**
 * Several LoadResults of the same target as one: req/s is the spread of every measured run;
 * latency percentiles are the median across the results of each result's percentile (max: the
 * largest); transfer/s the median; counts are summed; server CPU the median, RSS at start the
 * first result's, RSS and threads at their peak; the generator's CPU the mean, saturated if any
 * result was. The per-second series are concatenated with their runs renumbered.
 */
export function combineLoads(results: LoadResult[]): LoadResult {
  if (results.length === 0) throw new Error("combineLoads: nothing to combine");
  const first = results[0];
  const med = (f: (r: LoadResult) => number) => median(results.map(f));
  const servers = results.map((r) => r.server).filter((s): s is NonNullable<LoadResult["server"]> => s !== null);
  let run = 0;
  const series = results.flatMap((r) => {
    const measured = r.series.filter((s) => s.run !== "warm-up");
    const runs = [...new Set(measured.map((s) => s.run))];
    const renamed = new Map(runs.map((name) => [name, `run ${++run}`]));
    return measured.map((s) => ({ ...s, run: renamed.get(s.run)! }));
  });
  const sum = (f: (r: LoadResult) => number) => results.reduce((a, r) => a + f(r), 0);
  return {
    ...first,
    repeats: results.reduce((a, r) => a + r.repeats, 0),
    reqPerSec: spread(results.flatMap((r) => r.reqPerSec.runs)),
    latencyMs: { p50: med((r) => r.latencyMs.p50), p90: med((r) => r.latencyMs.p90), p99: med((r) => r.latencyMs.p99), mean: med((r) => r.latencyMs.mean), max: Math.max(...results.map((r) => r.latencyMs.max)) },
    latencyRuns: results.flatMap((r) => r.latencyRuns),
    bytesPerSec: med((r) => r.bytesPerSec),
    totalRequests: sum((r) => r.totalRequests), errors: sum((r) => r.errors), timeouts: sum((r) => r.timeouts), non2xx: sum((r) => r.non2xx),
    statusCodes: mergeCounts(results.map((r) => r.statusCodes)),
    server: servers.length ? {
      cpuPercent: median(servers.map((s) => s.cpuPercent)), cpuPercentMax: Math.max(...servers.map((s) => s.cpuPercentMax)),
      rssStartMB: servers[0].rssStartMB, rssPeakMB: Math.max(...servers.map((s) => s.rssPeakMB)),
      threadsPeak: servers.some((s) => s.threadsPeak !== null) ? Math.max(...servers.map((s) => s.threadsPeak ?? 0)) : null,
    } : null,
    generator: { cpuPercent: sum((r) => r.generator.cpuPercent) / results.length, saturated: results.some((r) => r.generator.saturated) },
    series,
  };
}
