import { performance } from "node:perf_hooks";
import type { AppHandle } from "../apps/start";
import { WorkbookError } from "../core/errors";
import { sleep } from "../core/time";
import { answeredNothing } from "../load/checks";
import { type ContentionTotals, combinePaced } from "../load/contention";
import { pacedFailure, pacedLoad } from "../load/paced";
import { runLoad } from "../load/run";
import { freshPath, rateForShare, timeRoute } from "../load/timing";
import { heapAfterGc } from "../profiles/memory";
import type { ExerciseSpec } from "./spec";

/**
 * The loads of an exercise check: the spec's measured load on one app, with its background load
 * at the same time. A latency metric is measured on an evenly paced load (pacedLoad), never on
 * autocannon's rate, whose per-second bursts decide a p99 by how they line up with the background.
 */

/** The smallest heap growth a check tells from none (readings after a full collection differ by ~0.1 MB). */
export const GROWTH_FLOOR_MB = 0.25;

/** The background load as the check runs it. */
export interface BackgroundPlan {
  path: string;
  /** Requests a second, evenly spaced. */
  rate: number;
  /** The spec's busyShare, or null for a fixed rate. */
  busyShare: number | null;
  /** The median time of one request on the baseline, in ms (busyShare only), and every timed request. */
  costMs: number | null;
  costSamples: number[];
}

/**
 * The background's rate. A fixed `rate` is taken as it is. A `busyShare` is turned into a rate
 * from the cost of one request, timed on `target` (the baseline) with timeRoute(): one request
 * untimed (lazy set-up), then `samples` one after another with nothing else running, each for a
 * fresh name; rate = rateForShare(busyShare, median ms) = busyShare x 1000 / median ms, the rule
 * notebook 02 plans its loads with. Throws when a request fails or answers anything but 200, or
 * costs under 1 ms (not an expensive route).
 */
export async function backgroundPlan(
  spec: ExerciseSpec,
  target: AppHandle | string,
  samples = 5,
): Promise<BackgroundPlan | null> {
  const bg = spec.background;
  if (!bg) return null;
  if (bg.busyShare === undefined)
    return { path: bg.path, rate: bg.rate!, busyShare: null, costMs: null, costSamples: [] };
  const timing = await timeRoute(target, bg.path, { repeats: samples, warmup: 1 });
  const costMs = timing.ms.median;
  if (costMs < 1)
    throw new Error(`one request to ${bg.path} took ${costMs.toFixed(2)} ms: busyShare is for an expensive route`);
  return {
    path: bg.path,
    rate: rateForShare(bg.busyShare, costMs),
    busyShare: bg.busyShare,
    costMs,
    costSamples: timing.ms.runs,
  };
}

/** The background for `seconds`, evenly paced; with `{name}` in the path, one request per fresh name (no cache can answer it). */
async function backgroundLoad(
  app: AppHandle,
  plan: BackgroundPlan,
  seconds: number,
  label: string,
): Promise<ContentionTotals> {
  const opts = { target: app, timeoutMs: 30_000, label };
  if (!plan.path.includes("{name}"))
    return combinePaced([await pacedLoad({ ...opts, path: plan.path, rate: plan.rate, seconds })]);
  const t0 = performance.now();
  const one = async (i: number) => {
    await sleep(t0 + (i * 1000) / plan.rate - performance.now());
    return pacedLoad({ ...opts, path: freshPath(plan.path), rate: 1, seconds: 1 }); // exactly one request, sent now
  };
  return combinePaced(
    await Promise.all(Array.from({ length: Math.max(1, Math.floor(plan.rate * seconds)) }, (_, i) => one(i))),
  );
}

/** A run without load figures: one that failed (value NaN, with why), or one that got no answer (value 0). */
function withoutFigures(
  label: string,
  failure: string | null,
  background: ContentionTotals | null,
  value = NaN,
): ExerciseRun {
  return {
    label,
    value,
    cpuPerRequestUs: null,
    latencyMs: { p50: NaN, p75: NaN, p90: NaN, p99: NaN },
    background,
    failure,
    generatorSaturated: false,
  };
}

export interface ExerciseRun {
  label: string;
  /** The spec's metric: req/s, or the latency percentile in ms. */
  value: number;
  /** The server's CPU time per request, µs (reqPerSec runs; null otherwise or where it cannot be read). */
  cpuPerRequestUs: number | null;
  latencyMs: { p50: number; p75: number; p90: number; p99: number };
  background: ContentionTotals | null;
  /** Why the run does not count (errors, timeouts, unexpected statuses, on either load); null when it does. */
  failure: string | null;
  /** req/s: autocannon used most of a core. Latency: the pacer's p99 send lag exceeded the gap between two requests (1000 / rate ms); the check times each latency from when its request went, so that lag is not in it. */
  generatorSaturated: boolean;
}

/**
 * One run of the spec's measured load on `app` for `seconds`, with the background (the check's plan,
 * from backgroundPlan) at the same time, or alone (null). Never throws for the app's answers. By
 * metric: `reqPerSec` runs `runLoad` (default 50 connections, no warm-up, one run; a run with no
 * answer at all and no error is `value` 0, not a failure: the app was too slow for the round);
 * `p50`/`p99` run `pacedLoad` at `load.rate`, each latency timed from when its request went
 * (`timeFrom: "sent"`: a pause of the check's own process, another program on its core, is not the
 * app's latency; the app's stalls are, since every request still goes out on schedule), and
 * `generatorSaturated` then means the pacer's p99 send lag exceeded the gap between two requests;
 * `heapGrowth` reads the heap after a full GC, sends `load.requests` requests paced at `load.rate`
 * (`seconds` aside: a warm-up is the same load, which fills whatever cache the load can fill) and
 * reads it again. When one of the two loads fails, the other still runs to its end. The background
 * is always paced; `{name}` in its path becomes, on every request, a name never given
 * before, so that no cache answers it (each report a request of its own, on a connection of its own).
 * The check's alone: an exercise notebook shows the same loads with wb.contentionRounds.
 */
export async function exerciseRun(
  app: AppHandle,
  spec: ExerciseSpec,
  background: BackgroundPlan | null,
  seconds: number,
  who = app.name,
): Promise<ExerciseRun> {
  const metric = spec.metric ?? "reqPerSec";
  const label = `${who} ${spec.load.path ?? "/"}${background ? ` with ${background.path}` : ""}`;
  if (metric === "heapGrowth") return heapGrowthRun(app, spec, label);
  const bg = background ? backgroundLoad(app, background, seconds, `${who} ${background.path}`) : Promise.resolve(null);
  if (metric === "reqPerSec") {
    const [r, b] = await Promise.allSettled([
      runLoad({
        target: app,
        ...spec.load,
        connections: spec.load.connections ?? 50,
        warmup: 0,
        duration: seconds,
        repeats: 1,
        live: false,
        label,
      }),
      bg,
    ]);
    const totals = b.status === "fulfilled" ? b.value : null;
    const bgFailure =
      b.status === "rejected"
        ? `the background load failed: ${(b.reason as Error).message}`
        : totals && pacedFailure(totals);
    if (r.status === "rejected") {
      const e = r.reason as Error;
      // No answer within the round and nothing failed: the app was too slow to answer at all (or still
      // serving the queue of the run before). That is a measurement, 0 req/s, not a failure.
      if (answeredNothing(e)) return withoutFigures(label, bgFailure, totals, 0);
      return withoutFigures(label, e instanceof WorkbookError ? e.summary : e.message, totals);
    }
    return {
      label,
      value: r.value.reqPerSec.median,
      cpuPerRequestUs: r.value.cpuPerRequestUs?.median ?? null,
      latencyMs: r.value.latencyMs,
      background: totals,
      failure: bgFailure,
      // Unknown (its CPU not read: WORKBOOK_READINGS=none) counts as not saturated: the check then compares req/s, the only figure left.
      generatorSaturated: r.value.generator.saturated === true,
    };
  }
  // allSettled, as above: when one load fails the other still runs to its end before the app is stopped.
  const rate = spec.load.rate!;
  const [c, b] = await Promise.allSettled([
    pacedLoad({
      target: app,
      path: spec.load.path ?? "/",
      method: spec.load.method,
      rate,
      seconds,
      label,
      timeFrom: "sent",
    }),
    bg,
  ]);
  const totals = b.status === "fulfilled" ? b.value : null;
  const bgFailure =
    b.status === "rejected"
      ? `the background load failed: ${(b.reason as Error).message}`
      : totals && pacedFailure(totals);
  if (c.status === "rejected") return withoutFigures(label, (c.reason as Error).message, totals);
  const cheap = c.value;
  return {
    label,
    value: cheap.latencyMs[metric],
    cpuPerRequestUs: null,
    latencyMs: cheap.latencyMs,
    background: totals,
    // Saturated: the pacer's p99 lag exceeds the gap between two measured requests (1000 / rate ms), as notebook 02's generatorLag() judges it.
    failure: pacedFailure(combinePaced([cheap])) ?? bgFailure,
    generatorSaturated: cheap.sendLagMs.p99 > 1000 / rate,
  };
}

/**
 * A heapGrowth run: the heap alive after a full collection, then `load.requests` requests paced at
 * `load.rate` (`{i}` in the path in turn over `load.cycle` values), then the heap alive again. The
 * value is the growth in MB: what the requests left behind. The check's warm-up is one such run, so
 * that each measured one asks what notebook 04 asks of a bounded cache: the first load fills it, the
 * next must add nothing.
 */
async function heapGrowthRun(app: AppHandle, spec: ExerciseSpec, label: string): Promise<ExerciseRun> {
  const failed = (failure: string): ExerciseRun => withoutFigures(label, failure, null);
  const rate = spec.load.rate!;
  const before = await heapAfterGc(app).catch((e: Error) => e);
  if (before instanceof Error) return failed(before.message);
  const run = await pacedLoad({
    target: app,
    path: spec.load.path ?? "/",
    cycle: spec.load.cycle,
    method: spec.load.method,
    rate,
    seconds: spec.load.requests! / rate,
    label,
  }).catch((e: Error) => e);
  if (run instanceof Error) return failed(run.message);
  const after = await heapAfterGc(app).catch((e: Error) => e);
  if (after instanceof Error) return failed(after.message);
  return {
    label,
    value: after.heapUsed - before.heapUsed,
    cpuPerRequestUs: null,
    latencyMs: run.latencyMs,
    background: null,
    failure: pacedFailure(combinePaced([run])),
    generatorSaturated: false,
  };
}
