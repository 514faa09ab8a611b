import type { AppHandle } from "../apps/start";
import { readUsage } from "../apps/usage";
import { atCellEnd } from "../charts/display";
import { badOption } from "../core/errors";
import { assertUniqueKeys, roundOrder } from "../core/order";
import { settings } from "../core/settings";
import { mergeCounts, type Spread, spread } from "../core/stats";
import { type LoopMetricsSnapshot, loopMetrics } from "./loop-metrics";
import { latencySummary, sumOutcomes } from "./outcome";
import type { PacedResult } from "./paced";
import { Pacer } from "./pacer";
import { pacedReport } from "./report";
import type { LatencySummary, Outcome } from "./types";

/**
 * Head-of-line blocking, measured: an evenly paced load on a cheap route while an evenly paced
 * background load hits an expensive route of the same app. Both are open-loop (pacedLoad), so
 * neither burst nor back-off decides the result.
 */

export interface ContentionVariant {
  /** Names the result. */
  key: string;
  target: AppHandle | string;
  /** The measured load. Default `/cheap` at 200 req/s. */
  cheap?: { path?: string; rate?: number };
  /** The background load, or null for the cheap route alone. Default `/expensive` at 4 req/s. `{name}` in a path: a fresh name on every request (pacedLoad). */
  background?: { path?: string; method?: string; rate: number } | null;
  /** Reset /__metrics before each measured run and read it after. Default false. */
  metrics?: boolean;
  /** OPTIONAL: pacedLoad's `stampHeader` for both loads (the time each request was due, e.g. "x-request-start"). */
  stampHeader?: string;
}

export interface ContentionRun {
  cheap: PacedResult;
  background: PacedResult | null;
  metrics: LoopMetricsSnapshot | null;
  /** The server's CPU time over the run per answer of both loads, µs; null for a URL target or where it cannot be read. */
  cpuPerRequestUs: number | null;
}

/** Several paced runs of one load, added up. */
export interface ContentionTotals extends Outcome {
  label: string;
  rate: number;
  due: number;
  skipped: number;
  errorCodes: Record<string, number>;
  /** Requests sent again after a keep-alive reset (pacedLoad's `retried`). */
  retried: number;
  latencyMs: LatencySummary;
  okLatencyMs: LatencySummary;
  /** The p99 of each run, to see the spread; its median is the figure to compare (one noisy run cannot move it). */
  p99: Spread;
  /** How late the generator sent (pacedLoad's sendLagMs), in the worst run: a large p99 means it was saturated. */
  sendLagMs: { p99: number; max: number };
}

export interface ContentionResult {
  key: string;
  seconds: number;
  cheap: ContentionTotals;
  background: ContentionTotals | null;
  /** Server CPU time per answered request, across the runs; null for a URL target or where it cannot be read. */
  cpuPerRequestUs: Spread | null;
  runs: ContentionRun[];
}

export function combinePaced(results: PacedResult[]): ContentionTotals {
  const sum = (f: (r: PacedResult) => number) => results.reduce((a, r) => a + f(r), 0);
  const answered = results.flatMap((r) => r.samples.filter((s) => s.latencyMs !== null));
  return {
    label: results[0].label,
    rate: results[0].rate,
    due: sum((r) => r.due),
    skipped: sum((r) => r.skipped),
    errorCodes: mergeCounts(results.map((r) => r.errorCodes)),
    retried: sum((r) => r.retried),
    ...sumOutcomes(results),
    latencyMs: latencySummary(answered.map((s) => s.latencyMs as number)),
    okLatencyMs: latencySummary(
      answered.filter((s) => s.status >= 200 && s.status < 300).map((s) => s.latencyMs as number),
    ),
    p99: spread(results.map((r) => r.latencyMs.p99)),
    sendLagMs: {
      p99: Math.max(...results.map((r) => r.sendLagMs.p99)),
      max: Math.max(...results.map((r) => r.sendLagMs.max)),
    },
  };
}

async function once(pacer: Pacer, v: ContentionVariant, seconds: number, measured: boolean): Promise<ContentionRun> {
  const metrics = measured && v.metrics === true;
  if (metrics) await loopMetrics(v.target, { reset: true });
  const bg = v.background === undefined ? { path: "/expensive", rate: 4 } : v.background;
  const cheapPath = v.cheap?.path ?? "/cheap";
  const app = typeof v.target === "string" ? null : { pid: v.target.pid, channel: v.target.channel };
  const cpu0 = app === null ? null : await readUsage(app, { threads: false });
  const [cheap, background = null] = await pacer.run([
    {
      target: v.target,
      path: cheapPath,
      rate: v.cheap?.rate ?? 200,
      seconds,
      stampHeader: v.stampHeader,
      label: `${v.key} ${cheapPath}`,
    },
    ...(bg
      ? [
          {
            target: v.target,
            path: bg.path ?? "/expensive",
            method: bg.method,
            rate: bg.rate,
            seconds,
            stampHeader: v.stampHeader,
            label: `${v.key} ${bg.path ?? "/expensive"}`,
          },
        ]
      : []),
  ]);
  const cpu1 = app === null ? null : await readUsage(app, { threads: false });
  const answers = cheap.totalRequests + (background?.totalRequests ?? 0);
  const cpuPerRequestUs = cpu0 && cpu1 && answers ? ((cpu1.cpuMs - cpu0.cpuMs) * 1000) / answers : null;
  return { cheap, background, metrics: metrics ? await loopMetrics(v.target) : null, cpuPerRequestUs };
}

function combine(v: ContentionVariant, seconds: number, runs: ContentionRun[]): ContentionResult {
  const bgs = runs.map((r) => r.background).filter((r): r is PacedResult => r !== null);
  const cpu = runs.map((r) => r.cpuPerRequestUs);
  return {
    key: v.key,
    seconds,
    cheap: combinePaced(runs.map((r) => r.cheap)),
    background: bgs.length ? combinePaced(bgs) : null,
    cpuPerRequestUs: cpu.every((c) => c !== null) ? spread(cpu as number[]) : null,
    runs,
  };
}

export interface ContentionRoundsOptions {
  /** Measured runs per variant. Default settings().repeats. */
  rounds?: number;
  /** Seconds per measured run. Default settings().durationSeconds. */
  seconds?: number;
  /** One discarded run of this length per variant first. Default settings().warmupSeconds; 0 for none. */
  warmupSeconds?: number;
  /** Print the schedule's pace and the loads' commands under the cell, as it ends (load/report.ts). Default true. */
  report?: boolean;
}

/**
 * Measure several variants in rounds: every round runs each variant once, in an order rotated by
 * one each round (core/order.ts), so a burst of other activity on the machine spoils one run of
 * several variants rather than every run of one. Head-of-line blocking, measured: for each variant a
 * `pacedLoad` on the cheap route (default `/cheap` at 200 req/s) and at the same time one on the
 * expensive route (`background`, default `/expensive` at 4 req/s; null for the cheap route alone).
 * Each variant first runs once for `warmupSeconds` (discarded). `metrics: true` resets the app's
 * `/__metrics` before each measured run and reads it after. A load's `p99` is a Spread of each run's
 * p99: its median is the figure to compare, which one noisy run cannot move. Throws `WB_BAD_OPTION`
 * for no variants, a repeated key, or `rounds` not an integer >= 1.
 *
 * @example
 * const hol = await wb.withApp("loop-blocking", (app) => wb.contentionRounds([
 *   { key: "alone", target: app, background: null },
 *   { key: "blocked", target: app, background: { path: "/expensive", rate: 3.6 }, metrics: true },
 * ]));
 * wb.markdown(`p99 ${wb.times(hol.blocked.cheap.p99.median / hol.alone.cheap.p99.median)} worse beside /expensive`);
 */
export async function contentionRounds(
  variants: ContentionVariant[],
  opts: ContentionRoundsOptions = {},
): Promise<Record<string, ContentionResult>> {
  const s = settings();
  const rounds = opts.rounds ?? s.repeats;
  const seconds = opts.seconds ?? s.durationSeconds;
  const warmup = opts.warmupSeconds ?? s.warmupSeconds;
  if (variants.length === 0) throw badOption("contentionRounds", "no variants");
  assertUniqueKeys(
    "contentionRounds",
    variants.map((v) => v.key),
  );
  if (!Number.isInteger(rounds) || rounds < 1)
    throw badOption("contentionRounds", `rounds must be an integer >= 1, got ${rounds}`);
  // The loads run in a process of their own (load/pacer.ts), on the generator's core when the apps are pinned.
  const pacer = await Pacer.start(variants.some((v) => typeof v.target !== "string" && v.target.cpus !== null));
  const runs = new Map<string, ContentionRun[]>(variants.map((v) => [v.key, []]));
  try {
    if (warmup > 0) for (const v of variants) await once(pacer, v, warmup, false);
    for (let round = 0; round < rounds; round++) {
      for (const v of roundOrder(variants, round)) runs.get(v.key)!.push(await once(pacer, v, seconds, true));
    }
  } finally {
    await pacer.stop();
  }
  const out: Record<string, ContentionResult> = {};
  for (const v of variants) out[v.key] = combine(v, seconds, runs.get(v.key)!);
  if (opts.report !== false) {
    const servers = Object.fromEntries(
      variants.map((v) => [v.key, typeof v.target === "string" ? null : v.target.command]),
    );
    atCellEnd(pacedReport(Object.values(out), servers));
  }
  return out;
}
