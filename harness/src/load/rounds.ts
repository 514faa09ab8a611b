import { type ConformanceResult, checkRoutes, DEFAULT_CHECKS, type RouteCheck } from "../apps/conformance";
import type { AppRef } from "../apps/registry";
import { type AppHandle, type StartOptions, startApp } from "../apps/start";
import { atCellEnd } from "../charts/display";
import { assertUniqueKeys, type RoundOrder, roundOrder } from "../core/order";
import { SATURATION_CPU_PERCENT, settings } from "../core/settings";
import { maxOrNull, median, pairedRatios, type Spread, spread } from "../core/stats";
import { wrkThreads } from "./generator";
import { generatorFigures, sumOutcomes } from "./outcome";
import { loadReport } from "./report";
import { runLoad } from "./run";
import type { LoadOptions, LoadResult } from "./types";

/** One app and the load to run against it in every round. */
export interface InterleaveTarget {
  /** Unique key for the result map (e.g. "fastify", "node-http@node22"). */
  key: string;
  app: AppRef;
  /** OPTIONAL startApp options (runtime, env...). */
  start?: StartOptions;
  /** OPTIONAL route checks. Default: the /hello, /json, /blog and 404 checks of apps/frameworks/; [] for none. */
  checks?: readonly RouteCheck[];
  /** runLoad options except target and repeats; the warm-up and the live chart are for the first round only. */
  load: Omit<LoadOptions, "target" | "repeats">;
}

export interface InterleavedRun {
  key: string;
  app: string;
  /** null when the app did not start. */
  conformance: ConformanceResult | null;
  /** Every round combined; null when no round completed. */
  load: LoadResult | null;
  /** The rounds one by one (one measured run each). */
  rounds: LoadResult[];
  /** Why the target stopped early: the start error, the failed routes, or the load error. */
  error: string | null;
  /** What was thrown, when `error` comes from a throw (a WorkbookError keeps its code, hint and output); null otherwise. */
  cause: unknown;
}

export interface InterleaveOptions {
  /** Measured rounds. Default settings().rounds. */
  rounds?: number;
  /** The load of every target given by name (a string), labelled with its name. */
  load?: Omit<LoadOptions, "target" | "repeats">;
  /** The route checks of every target given by name. Default: none. */
  checks?: readonly RouteCheck[];
  /** How the order changes from round to round (core/order.ts). Default "rotate". */
  order?: RoundOrder;
  /**
   * Load every target at once in each round, side by side on the apps' cores, instead of one after
   * the other: each target's generator runs meanwhile (wrk: a process each, sharing the generator's
   * CPUs). Default false. See "Side by side" in the harness README.
   */
  together?: boolean;
  /** Called after each complete round with every run so far; return true to stop there (an early stop, a time limit). */
  until?: (runs: ReadonlyMap<string, InterleavedRun>, round: number) => boolean;
  /** Print every target's pace and command under the cell, as it ends (load/report.ts). Default true. */
  report?: boolean;
}

/**
 * Start every target's app, check its routes, then load the healthy ones in rounds (default: the
 * profile's `rounds` of `roundSeconds`, with the measuring generator): each round runs each target
 * once, in an order that changes every round, so that a burst of other activity on the machine lands
 * on several targets' runs rather than on all runs of one. Each target is warmed up
 * before its first round only. `rounds: 0` only starts and checks every app. A target that fails to
 * start, fails a route check or fails a load is reported with its error and dropped from later
 * rounds; the others go on. Every app is stopped at the end, whatever happens. A target given by
 * name alone (a string) is loaded with `opts.load` and checked with `opts.checks` (default: not checked).
 *
 * A target `{ key, app, start?, checks?, load }`: `checks` default to the `/hello`, `/json`, `/blog`
 * and 404 checks of `apps/frameworks/` (`[]` for none); `load` is `runLoad`'s options but `target`
 * and `repeats`. `opts.order`: "rotate" (round r starts with target r; default), "alternate" (every
 * other round backwards) or "random" (each round's order drawn, seeded by the round). With
 * `together`, each round loads every target at once instead of in turns; `until` may end the rounds
 * early. Never rejects for a target's sake; throws `WB_BAD_OPTION` for a repeated key. In each run's
 * combined `load`, every run is kept in order, latency percentiles are the median across rounds
 * (`max` the largest), counts are summed, RSS at start is the first round's and the peaks the largest.
 *
 * @example
 * const pair = await wb.interleavedLoads(["etag-fixed", "etag-optimised"], { rounds: 5, load: { path: "/seed/v1" } });
 * const opt = wb.advantage(pair.get("etag-optimised")!.rounds, pair.get("etag-fixed")!.rounds);
 * wb.markdown(wb.advantageText("The optimised server", "the fixed one", opt));
 */
export async function interleavedLoads(
  given: (InterleaveTarget | string)[],
  opts: InterleaveOptions = {},
): Promise<Map<string, InterleavedRun>> {
  const s = settings();
  const rounds = opts.rounds ?? s.rounds;
  const targets: InterleaveTarget[] = given.map((t) =>
    typeof t === "string"
      ? { key: t, app: t, checks: opts.checks ?? [], load: { label: t, live: false, ...opts.load } }
      : t,
  );
  assertUniqueKeys(
    "interleavedLoads",
    targets.map((t) => t.key),
  );
  const runs = new Map<string, InterleavedRun>();
  const handles = new Map<string, AppHandle>();
  try {
    for (const t of targets) {
      const name = typeof t.app === "string" ? t.app : (t.app.name ?? t.app.entry);
      const run: InterleavedRun = {
        key: t.key,
        app: name,
        conformance: null,
        load: null,
        rounds: [],
        error: null,
        cause: null,
      };
      runs.set(t.key, run);
      try {
        const handle = await startApp(t.app, t.start);
        handles.set(t.key, handle);
        run.conformance = await checkRoutes(handle.url, t.checks ?? DEFAULT_CHECKS);
        if (!run.conformance.ok) {
          run.error = `wrong answers, not loaded: ${run.conformance.routes
            .filter((r) => !r.ok)
            .map((r) => `${r.method} ${r.path}: ${r.error}`)
            .join("; ")}`;
        }
      } catch (err) {
        run.error = (err as Error).message;
        run.cause = err;
      }
    }
    const once = async (t: InterleaveTarget, round: number): Promise<LoadResult | null> => {
      const run = runs.get(t.key)!;
      const handle = handles.get(t.key);
      if (run.error !== null || !handle) return null;
      try {
        return await runLoad({
          ...t.load,
          duration: t.load.duration ?? s.roundSeconds,
          target: handle,
          repeats: 1,
          warmup: round === 0 ? t.load.warmup : 0,
          live: round === 0 && !opts.together ? t.load.live : false,
          report: false,
        });
      } catch (err) {
        run.error = `round ${round + 1}: ${(err as Error).message}`;
        run.cause = err;
        return null;
      }
    };
    for (let round = 0; round < rounds; round++) {
      if (opts.together) {
        const results = await Promise.all(targets.map((t) => once(t, round)));
        const shared = sharedSaturation(results.filter((r): r is LoadResult => r !== null));
        targets.forEach((t, i) => {
          if (results[i]) runs.get(t.key)!.rounds.push(shared.get(results[i])!);
        });
      } else {
        for (const t of roundOrder(targets, round, opts.order)) {
          const result = await once(t, round);
          if (result) runs.get(t.key)!.rounds.push(result);
        }
      }
      if (opts.until?.(runs, round)) break;
    }
  } finally {
    await Promise.all([...handles.values()].map((h) => h.stop()));
  }
  for (const run of runs.values()) run.load = run.rounds.length ? combineLoads(run.rounds) : null;
  const loads = [...runs.values()].flatMap((r) => (r.load ? [r.load] : []));
  if (opts.report !== false && loads.length) atCellEnd(loadReport(loads));
  return runs;
}

/**
 * Side by side, wrk's processes share the generator's CPUs, so each one alone reads at most its share
 * of them and never reaches the saturation line: the round is saturated when together they used
 * SATURATION_CPU_PERCENT of every CPU their threads run on. (autocannon's loads share this process's
 * main thread, whose CPU each of them already reads whole.) Returns each result with its generator's
 * saturation set that way.
 */
function sharedSaturation(results: readonly LoadResult[]): Map<LoadResult, LoadResult> {
  const wrk = results.filter((r) => r.generator.name === "wrk");
  const cpu = wrk.map((r) => r.generator.cpuPercent?.median ?? null);
  const threads = wrk.length ? wrkThreads(wrk[0].connections) : 1;
  // A generator CPU not read (null) leaves saturation unknown, never "it kept up".
  const saturated = cpu.every((c): c is number => c !== null)
    ? cpu.reduce((sum, c) => sum + c, 0) / threads >= SATURATION_CPU_PERCENT
    : null;
  return new Map(
    results.map((r) => {
      if (r.generator.name !== "wrk" || wrk.length < 2) return [r, r];
      const runs = r.runs.map((f) => ({ ...f, saturated }));
      const saturatedRuns = saturated === null ? null : runs.filter((f) => f.saturated).length;
      return [r, { ...r, runs, generator: { ...r.generator, saturated, saturatedRuns } }];
    }),
  );
}

/** The figure a comparison is made on: requests per second (what users feel), or server CPU time per request. */
export type RatioMetric = "reqPerSec" | "cpuPerRequest";

/**
 * How many times better `a` did than `b`, round by round (the i-th result of each ran in the same
 * round, close in time, so a burst of other activity spoils one round of both rather than all runs of
 * one): a's req/s over b's, or b's CPU per request over a's (less CPU is better). The median is the
 * ratio to quote. null when either has no round, or no CPU figure for "cpuPerRequest".
 */
export function roundRatios(
  a: readonly LoadResult[],
  b: readonly LoadResult[],
  metric: RatioMetric = "reqPerSec",
): Spread | null {
  if (metric === "reqPerSec")
    return pairedRatios(
      a.map((r) => r.reqPerSec.median),
      b.map((r) => r.reqPerSec.median),
    );
  const cpu = (rs: readonly LoadResult[]) => rs.map((r) => r.cpuPerRequestUs?.median ?? NaN);
  const ratios = pairedRatios(cpu(b), cpu(a));
  return ratios?.runs.every(Number.isFinite) ? ratios : null;
}

/**
 * Several LoadResults of the same target as one: every run's figures kept in order (runs, req/s, CPU
 * per request), latency percentiles the median across the results (max: the largest), counts summed,
 * RSS at start the first result's and at its peak the largest, the per-second series concatenated with
 * their runs renumbered.
 */
export function combineLoads(results: LoadResult[]): LoadResult {
  const first = results[0];
  const med = (f: (r: LoadResult) => number) => median(results.map(f));
  const runs = results.flatMap((r) => r.runs).map((f, i) => ({ ...f, run: `run ${i + 1}` }));
  let n = 0;
  const series = results.flatMap((r) => {
    const measured = r.series.filter((s) => s.run !== "warm-up");
    const renamed = new Map([...new Set(measured.map((s) => s.run))].map((name) => [name, `run ${++n}`]));
    return measured.map((s) => ({ ...s, run: renamed.get(s.run)! }));
  });
  const servers = results.map((r) => r.server).filter((s): s is NonNullable<LoadResult["server"]> => s !== null);
  const cpu = runs.map((f) => f.cpuPerRequestUs);
  return {
    ...first,
    repeats: runs.length,
    runs,
    reqPerSec: spread(runs.map((f) => f.reqPerSec)),
    cpuPerRequestUs: cpu.every((c) => c !== null) ? spread(cpu as number[]) : null,
    latencyMs: {
      count: results.reduce((a, r) => a + r.latencyMs.count, 0),
      p50: med((r) => r.latencyMs.p50),
      p75: med((r) => r.latencyMs.p75),
      p90: med((r) => r.latencyMs.p90),
      p99: med((r) => r.latencyMs.p99),
      mean: med((r) => r.latencyMs.mean),
      stdev: med((r) => r.latencyMs.stdev),
      max: Math.max(...results.map((r) => r.latencyMs.max)),
    },
    bytesPerSec: med((r) => r.bytesPerSec),
    ...sumOutcomes(results),
    server:
      servers.length === results.length
        ? {
            cpuPercent: spread(runs.map((f) => f.serverCpuPercent ?? NaN)),
            rssStartMB: servers[0].rssStartMB,
            rssPeakMB: maxOrNull(servers.map((s) => s.rssPeakMB)),
            threadsPeak: maxOrNull(servers.map((s) => s.threadsPeak)),
          }
        : null,
    generator: generatorFigures(first.generator.name, results[results.length - 1].generator.report, runs),
    series,
  };
}

/**
 * What a comparison of two targets measured in the same rounds can claim, and on which figure.
 *   - "measured": no round saturated the load generator: the req/s ratio measures both servers;
 *   - "lower bound": a's rounds saturated it (a's req/s is a floor), so a's true advantage is at least this;
 *   - "upper bound": b's did, so a's true advantage is at most this;
 *   - "both capped": both did: the req/s ratio measures the generator, not the servers;
 *   - "unchecked": the generator's CPU was not read (WORKBOOK_READINGS=none), so whether it kept up is unknown.
 */
export type RatioReading = "measured" | "lower bound" | "upper bound" | "both capped" | "unchecked";

export interface Advantage {
  /** a's advantage by req/s (a / b) and by server CPU per request (b / a), round by round; null when not measured. */
  reqPerSec: Spread | null;
  cpuPerRequest: Spread | null;
  /** What the req/s ratio is worth, from the rounds in which the generator was saturated. */
  reading: RatioReading;
  /** The figure to quote and assert: req/s when it was measured, else CPU per request (which still measures the servers). */
  decidedOn: RatioMetric;
  /** That figure's ratio (null when neither could be taken). */
  ratio: Spread | null;
  saturatedRounds: { a: number; b: number };
}

/**
 * How many times better `a` did than `b` in the same rounds (the `rounds` of two targets of one
 * `interleavedLoads` call), on the figure that measures the servers:
 *
 * | rounds saturated | `reading` | `decidedOn` |
 * |---|---|---|
 * | none | measured: the req/s ratio measures both servers | reqPerSec |
 * | `a`'s only | lower bound: `a`'s req/s is a floor | cpuPerRequest |
 * | `b`'s only | upper bound: `b`'s req/s is a floor | cpuPerRequest |
 * | both | both capped: the req/s ratio measures the generator | cpuPerRequest |
 *
 * When the CPU figure could not be read, `decidedOn` stays reqPerSec and `reading` says what that
 * ratio is worth; `ratio` is null when neither could be taken. `advantageText` writes it as a sentence.
 *
 * @example
 * const vsHttp = wb.advantage(main.get("express")!.rounds, main.get("node-http")!.rounds);
 * wb.markdown(`Express: ${wb.times(vsHttp.ratio!.median)} node:http's, taken on ${vsHttp.decidedOn}.`);
 */
export function advantage(a: readonly LoadResult[], b: readonly LoadResult[]): Advantage {
  const satA = a.filter((r) => r.generator.saturated === true).length;
  const satB = b.filter((r) => r.generator.saturated === true).length;
  const unknown = [...a, ...b].some((r) => r.generator.saturated === null);
  let reading: RatioReading = unknown ? "unchecked" : "measured";
  if (satA && satB) reading = "both capped";
  else if (satA) reading = "lower bound";
  else if (satB) reading = "upper bound";
  const reqPerSec = roundRatios(a, b, "reqPerSec");
  const cpuPerRequest = roundRatios(a, b, "cpuPerRequest");
  const decidedOn: RatioMetric = reading === "measured" || cpuPerRequest === null ? "reqPerSec" : "cpuPerRequest";
  return {
    reqPerSec,
    cpuPerRequest,
    reading,
    decidedOn,
    ratio: decidedOn === "reqPerSec" ? reqPerSec : cpuPerRequest,
    saturatedRounds: { a: satA, b: satB },
  };
}
