import { pacedLoad, summariseLatency, PacedResult, PacedLatency } from "./paced";
import { loopMetrics, LoopMetricsSnapshot } from "./loop-metrics";
import { settings } from "./settings";
import { median } from "./stats";
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
  const statusCodes: Record<string, number> = {};
  const errorCodes: Record<string, number> = {};
  for (const r of results) {
    for (const [k, v] of Object.entries(r.statusCodes)) statusCodes[k] = (statusCodes[k] ?? 0) + v;
    for (const [k, v] of Object.entries(r.errorCodes)) errorCodes[k] = (errorCodes[k] ?? 0) + v;
  }
  const answered = results.flatMap((r) => r.samples.filter((s) => s.latencyMs !== null));
  return {
    label: results[0].label, rate: results[0].rate, due: sum((r) => r.due), completed: sum((r) => r.completed),
    skipped: sum((r) => r.skipped), errors: sum((r) => r.errors), timeouts: sum((r) => r.timeouts), errorCodes, retried: sum((r) => r.retried), non2xx: sum((r) => r.non2xx),
    statusCodes,
    latencyMs: summariseLatency(answered.map((s) => s.latencyMs as number)),
    okLatencyMs: summariseLatency(answered.filter((s) => s.status >= 200 && s.status < 300).map((s) => s.latencyMs as number)),
    p99Runs: results.map((r) => r.latencyMs.p99),
    p99Median: median(results.map((r) => r.latencyMs.p99)),
  };
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
