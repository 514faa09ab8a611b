import { pacedLoad, summariseLatency, PacedResult, PacedLatency } from "./paced";
import { loopMetrics, LoopMetricsSnapshot } from "./loop-metrics";
import { settings } from "./settings";
import { median, mergeCounts } from "./stats";
import type { AppHandle } from "./apps";

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
  /** The background load, or null for the cheap route alone. Default `/expensive` at 4 req/s. */
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
}

export interface ContentionTotals {
  label: string;
  rate: number;
  due: number;
  completed: number;
  skipped: number;
  errors: number;
  timeouts: number;
  errorCodes: Record<string, number>;
  /** Requests sent again after a keep-alive reset (pacedLoad's `retried`). */
  retried: number;
  non2xx: number;
  statusCodes: Record<string, number>;
  latencyMs: PacedLatency;
  okLatencyMs: PacedLatency;
  /** The p99 of each measured run, to see the spread, and their median: the figure to compare (one noisy run cannot move it). */
  p99Runs: number[];
  p99Median: number;
  /** How late the generator sent (pacedLoad's sendLagMs), in the worst run: a large p99 means it was saturated. */
  sendLagMs: { p99: number; max: number };
}

export interface ContentionResult {
  key: string;
  seconds: number;
  cheap: ContentionTotals;
  background: ContentionTotals | null;
  runs: ContentionRun[];
}

export function combinePaced(results: PacedResult[]): ContentionTotals {
  const sum = (f: (r: PacedResult) => number) => results.reduce((a, r) => a + f(r), 0);
  const statusCodes = mergeCounts(results.map((r) => r.statusCodes));
  const errorCodes = mergeCounts(results.map((r) => r.errorCodes));
  const answered = results.flatMap((r) => r.samples.filter((s) => s.latencyMs !== null));
  return {
    label: results[0].label, rate: results[0].rate, due: sum((r) => r.due), completed: sum((r) => r.completed),
    skipped: sum((r) => r.skipped), errors: sum((r) => r.errors), timeouts: sum((r) => r.timeouts), errorCodes, retried: sum((r) => r.retried), non2xx: sum((r) => r.non2xx),
    statusCodes,
    latencyMs: summariseLatency(answered.map((s) => s.latencyMs as number)),
    okLatencyMs: summariseLatency(answered.filter((s) => s.status >= 200 && s.status < 300).map((s) => s.latencyMs as number)),
    p99Runs: results.map((r) => r.latencyMs.p99),
    p99Median: median(results.map((r) => r.latencyMs.p99)),
    sendLagMs: { p99: Math.max(...results.map((r) => r.sendLagMs.p99)), max: Math.max(...results.map((r) => r.sendLagMs.max)) },
  };
}

/** One figure across the measured runs: each run's value, their median (the figure to quote) and range. */
export interface RunSpread {
  median: number;
  min: number;
  max: number;
  runs: number[];
}

/**
 * p50, p90 and p99 of one load, computed run by run and summarised as the median run with the
 * best and worst: the same figures as `p99Median` / `p99Runs`, for any percentile and any subset
 * of answers. `load`: "cheap" (default) or "background"; `status`: "any" answer (default), "2xx",
 * or one HTTP status (e.g. 503). Runs without a matching answer are left out; `count` sums the answers.
 */
export function runPercentiles(r: ContentionResult, opts: { load?: "cheap" | "background"; status?: "any" | "2xx" | number } = {}): { count: number; p50: RunSpread; p90: RunSpread; p99: RunSpread } {
  const status = opts.status ?? "any";
  const keep = (code: number) => status === "any" || (status === "2xx" ? code >= 200 && code < 300 : code === status);
  const perRun = r.runs.map((run) => (opts.load === "background" ? run.background : run.cheap))
    .map((p) => summariseLatency((p?.samples ?? []).filter((x) => x.latencyMs !== null && keep(x.status)).map((x) => x.latencyMs as number)))
    .filter((l) => l.count > 0);
  const of = (f: (l: PacedLatency) => number): RunSpread => {
    const runs = perRun.map(f);
    return { median: median(runs), min: runs.length ? Math.min(...runs) : NaN, max: runs.length ? Math.max(...runs) : NaN, runs };
  };
  return { count: perRun.reduce((a, l) => a + l.count, 0), p50: of((l) => l.p50), p90: of((l) => l.p90), p99: of((l) => l.p99) };
}

async function once(v: ContentionVariant, seconds: number, measured: boolean): Promise<ContentionRun> {
  const metrics = measured && v.metrics === true;
  if (metrics) await loopMetrics(v.target, { reset: true });
  const bg = v.background === undefined ? { path: "/expensive", rate: 4 } : v.background;
  const cheapPath = v.cheap?.path ?? "/cheap";
  const [cheap, background] = await Promise.all([
    pacedLoad({ target: v.target, path: cheapPath, rate: v.cheap?.rate ?? 200, seconds, stampHeader: v.stampHeader, label: `${v.key} ${cheapPath}` }),
    bg ? pacedLoad({ target: v.target, path: bg.path ?? "/expensive", method: bg.method, rate: bg.rate, seconds, stampHeader: v.stampHeader, label: `${v.key} ${bg.path ?? "/expensive"}` }) : Promise.resolve(null),
  ]);
  return { cheap, background, metrics: metrics ? await loopMetrics(v.target) : null };
}

function combine(v: ContentionVariant, seconds: number, runs: ContentionRun[]): ContentionResult {
  const bgs = runs.map((r) => r.background).filter((r): r is PacedResult => r !== null);
  return { key: v.key, seconds, cheap: combinePaced(runs.map((r) => r.cheap)), background: bgs.length ? combinePaced(bgs) : null, runs };
}

export interface ContentionRoundsOptions {
  /** Measured runs per variant. Default settings().repeats. */
  rounds?: number;
  /** Seconds per measured run. Default settings().durationSeconds. */
  seconds?: number;
  /** One discarded run of this length per variant first. Default settings().warmupSeconds; 0 for none. */
  warmupSeconds?: number;
}

/**
 * Measure several variants in rounds: every round runs each variant once, in an order rotated
 * by one each round, so a burst of other activity on the machine spoils one run of several
 * variants rather than every run of one.
 */
export async function contentionRounds(variants: ContentionVariant[], opts: ContentionRoundsOptions = {}): Promise<Record<string, ContentionResult>> {
  const s = settings();
  const rounds = opts.rounds ?? s.repeats;
  const seconds = opts.seconds ?? s.durationSeconds;
  const warmup = opts.warmupSeconds ?? s.warmupSeconds;
  if (variants.length === 0) throw new Error("contentionRounds: no variants");
  if (new Set(variants.map((v) => v.key)).size !== variants.length) throw new Error("contentionRounds: keys must be unique");
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`contentionRounds: rounds must be an integer >= 1, got ${rounds}`);
  if (warmup > 0) for (const v of variants) await once(v, warmup, false);
  const runs = new Map<string, ContentionRun[]>(variants.map((v) => [v.key, []]));
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < variants.length; i++) {
      const v = variants[(i + round) % variants.length];
      runs.get(v.key)!.push(await once(v, seconds, true));
    }
  }
  const out: Record<string, ContentionResult> = {};
  for (const v of variants) out[v.key] = combine(v, seconds, runs.get(v.key)!);
  return out;
}

/** One variant: a warm-up, then `rounds` measured runs (see contentionRounds). */
export async function contention(variant: ContentionVariant, opts: ContentionRoundsOptions = {}): Promise<ContentionResult> {
  return (await contentionRounds([variant], opts))[variant.key];
}
