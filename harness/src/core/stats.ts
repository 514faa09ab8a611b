/** Small, dependency-free statistics used across the harness. */

export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = s.length >> 1;
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** Nearest-rank percentile, p in [0, 100]. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const rank = Math.min(s.length - 1, Math.max(0, Math.ceil((p / 100) * s.length) - 1));
  return s[rank];
}

/**
 * A figure measured several times: the median (the figure to quote), the smallest and largest, and
 * every value in the order measured. The one "median with its spread" type of the harness.
 */
export interface Spread {
  median: number;
  min: number;
  max: number;
  /** (max - min) / median: 0.1 means the values spanned 10 % of the median. */
  relativeSpread: number;
  /** Coefficient of variation: standard deviation / mean (0 for fewer than two values). */
  cv: number;
  runs: number[];
}

/**
 * A `Spread` of any list: `median` (the figure to quote), `min`, `max`, `relativeSpread` (`(max -
 * min) / median`), `cv` (sample standard deviation over the mean; 0 for fewer than two values) and
 * `runs`, every value in the order measured. Non-finite values are left out of `median`, `min`, `max`
 * and `cv` but kept in `runs`. With no finite value, `median`, `min`, `max` and `relativeSpread` are
 * NaN; `relativeSpread` is also NaN when the median is 0.
 */
export function spread(values: readonly number[]): Spread {
  const finite = values.filter(Number.isFinite);
  const m = median(finite);
  const min = finite.length ? Math.min(...finite) : NaN;
  const max = finite.length ? Math.max(...finite) : NaN;
  return { median: m, min, max, relativeSpread: m ? (max - min) / m : NaN, cv: cv(finite), runs: [...values] };
}

/** Standard deviation over mean (sample standard deviation); 0 for fewer than two values. */
export function cv(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((a, b) => a + b, 0) / values.length;
  const variance = values.reduce((a, b) => a + (b - mean) ** 2, 0) / (values.length - 1);
  return mean ? Math.sqrt(variance) / Math.abs(mean) : NaN;
}

/**
 * a[i] / b[i] for each i both have (values measured in the same round, close in time), as a Spread:
 * its median is the ratio to quote. null when either list is empty.
 */
export function pairedRatios(a: readonly number[], b: readonly number[]): Spread | null {
  const n = Math.min(a.length, b.length);
  if (n === 0) return null;
  return spread(Array.from({ length: n }, (_, i) => a[i] / b[i]));
}

/** A deterministic pseudo-random generator (mulberry32): the same seed gives the same resamples, so an interval is reproducible. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A range a median is likely to lie in: `level` (0.95) of the medians of resamples fall inside it. */
export interface Interval {
  low: number;
  high: number;
  level: number;
}

/**
 * The percentile bootstrap interval of the median of `values`: the median of `resamples` resamples
 * (drawn with replacement, by a seeded generator, so the same values always give the same interval),
 * and the middle `level` of those medians. NaN bounds for no finite value; a single value is its own
 * interval. What a comparison of many short paired rounds quotes beside its median ratio.
 */
export function medianInterval(values: readonly number[], level = 0.95, resamples = 2000): Interval {
  const xs = values.filter(Number.isFinite);
  if (xs.length === 0) return { low: NaN, high: NaN, level };
  const next = seeded(xs.length * 7919 + 17);
  const medians: number[] = [];
  const sample = new Array<number>(xs.length);
  for (let r = 0; r < resamples; r++) {
    for (let i = 0; i < xs.length; i++) sample[i] = xs[Math.floor(next() * xs.length)];
    medians.push(median(sample));
  }
  const tail = ((1 - level) / 2) * 100;
  return { low: percentile(medians, tail), high: percentile(medians, 100 - tail), level };
}

/**
 * How many rounds two runs of this comparison would need for their medians to agree within
 * `within` (a share of the median: 0.03) 95 % of the time, from the spread of one run's per-round
 * `values`: the interval of the median narrows as 1/sqrt(rounds), and two runs' medians differ by
 * sqrt(2) times one median's error. With h the half-width of the 95 % interval of n rounds and m the
 * median: 2 n (h / (within m))^2, rounded up, and never under 2. NaN for fewer than 2 finite values
 * or a median of 0. `make bench-harness` prints it beside each design. A lower bound: it assumes the
 * machine stays as it was; where the ratio itself drifts between runs, no number of rounds will do.
 */
export function roundsToAgree(values: readonly number[], within = 0.03): number {
  const xs = values.filter(Number.isFinite);
  const m = median(xs);
  if (xs.length < 2 || m === 0) return NaN;
  const { low, high } = medianInterval(xs);
  const half = (high - low) / 2;
  return Math.max(2, Math.ceil(2 * xs.length * (half / (within * Math.abs(m))) ** 2));
}

/** The largest of some readings, or null when any is null (a reading this platform could not take). */
export function maxOrNull(values: readonly (number | null)[]): number | null {
  return values.length > 0 && values.every((v): v is number => v !== null) ? Math.max(...values) : null;
}

export function round(value: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/** Counts by key (status codes, error codes) summed over several records: `{ "200": 5 }` + `{ "200": 2, "503": 1 }`. */
export function mergeCounts(records: Iterable<Readonly<Record<string, number>>>): Record<string, number> {
  const total: Record<string, number> = {};
  for (const r of records) for (const [key, n] of Object.entries(r)) total[key] = (total[key] ?? 0) + n;
  return total;
}

/** Student's t at 97.5 %, by degrees of freedom 1..30 (a two-sided 95 % interval); 1.96 beyond. */
const T975 = [
  12.71, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.16, 2.145, 2.131, 2.12, 2.11,
  2.101, 2.093, 2.086, 2.08, 2.074, 2.069, 2.064, 2.06, 2.056, 2.052, 2.048, 2.045, 2.042,
];
export const t975 = (df: number): number => (df < 1 ? NaN : (T975[Math.floor(df) - 1] ?? 1.96));

/** Student's t at 99.5 %, by degrees of freedom 1..30 (a two-sided 99 % interval); 2.576 beyond. */
const T995 = [
  63.66, 9.925, 5.841, 4.604, 4.032, 3.707, 3.499, 3.355, 3.25, 3.169, 3.106, 3.055, 3.012, 2.977, 2.947, 2.921, 2.898,
  2.878, 2.861, 2.845, 2.831, 2.819, 2.807, 2.797, 2.787, 2.779, 2.771, 2.763, 2.756, 2.75,
];
export const t995 = (df: number): number => (df < 1 ? NaN : (T995[Math.floor(df) - 1] ?? 2.576));

/** The fewest values a prediction is made from: with fewer, t and the standard deviation are too loose to say anything. */
export const PREDICT_MIN_VALUES = 5;

/**
 * Where 99 runs in 100 of the next run's value should fall, from the values earlier runs measured: the
 * 99 % prediction interval mean ± t(n-1) × sd × sqrt(1 + 1/n). A range of n runs misses the next one 2
 * times in n + 1 by chance alone; this is the line a run must cross before it is called unusual. On the
 * log scale when every value is above 0 (ratios and times spread by factors, and the bounds then stay
 * above 0), else on the values themselves. null for fewer than PREDICT_MIN_VALUES finite values.
 */
export function predictionRange(values: readonly number[]): { low: number; high: number; n: number } | null {
  const xs = values.filter(Number.isFinite);
  const n = xs.length;
  if (n < PREDICT_MIN_VALUES) return null;
  const log = xs.every((v) => v > 0);
  const ys = log ? xs.map(Math.log) : xs;
  const mean = ys.reduce((a, b) => a + b, 0) / n;
  const sd = Math.sqrt(ys.reduce((a, b) => a + (b - mean) ** 2, 0) / (n - 1));
  const half = t995(n - 1) * sd * Math.sqrt(1 + 1 / n);
  const back = log ? Math.exp : (v: number) => v;
  return { low: back(mean - half), high: back(mean + half), n };
}

/**
 * Least-squares slope of y over x (units of y per unit of x), with the fit's R², the slope's
 * standard error and its 95 % interval (`low`, `high`: slope -/+ t(n-2) x se; NaN for fewer than
 * three points). NaN for fewer than two distinct x. Used for "is memory climbing".
 */
export function slope(points: readonly { x: number; y: number }[]): {
  slope: number;
  r2: number;
  se: number;
  low: number;
  high: number;
} {
  const n = points.length;
  const none = { slope: NaN, r2: NaN, se: NaN, low: NaN, high: NaN };
  if (n < 2) return none;
  const mx = points.reduce((a, p) => a + p.x, 0) / n;
  const my = points.reduce((a, p) => a + p.y, 0) / n;
  let sxy = 0,
    sxx = 0,
    syy = 0;
  for (const p of points) {
    sxy += (p.x - mx) * (p.y - my);
    sxx += (p.x - mx) ** 2;
    syy += (p.y - my) ** 2;
  }
  if (sxx === 0) return none;
  const b = sxy / sxx;
  const residual = Math.max(0, syy - b * sxy);
  const se = n > 2 ? Math.sqrt(residual / (n - 2) / sxx) : NaN;
  const half = t975(n - 2) * se;
  return { slope: b, r2: syy === 0 ? 1 : (sxy * sxy) / (sxx * syy), se, low: b - half, high: b + half };
}

/**
 * One least-squares slope of y over x shared by several groups of points, each with an intercept of
 * its own (a step between groups is not a slope): the same fields as `slope`, the interval with
 * n - groups - 1 degrees of freedom (NaN when there are none). A group of one point tells nothing
 * about the slope and is left out.
 */
export function commonSlope(points: readonly { x: number; y: number; group: string | number | boolean }[]): {
  slope: number;
  r2: number;
  se: number;
  low: number;
  high: number;
} {
  const groups = new Map<unknown, { x: number; y: number }[]>();
  for (const p of points) groups.set(p.group, [...(groups.get(p.group) ?? []), p]);
  const kept = [...groups.values()].filter((g) => g.length > 1);
  let sxy = 0,
    sxx = 0,
    syy = 0,
    n = 0;
  for (const g of kept) {
    const mx = g.reduce((a, p) => a + p.x, 0) / g.length;
    const my = g.reduce((a, p) => a + p.y, 0) / g.length;
    for (const p of g) {
      sxy += (p.x - mx) * (p.y - my);
      sxx += (p.x - mx) ** 2;
      syy += (p.y - my) ** 2;
    }
    n += g.length;
  }
  if (sxx === 0) return { slope: NaN, r2: NaN, se: NaN, low: NaN, high: NaN };
  const b = sxy / sxx;
  const df = n - kept.length - 1;
  const se = df > 0 ? Math.sqrt(Math.max(0, syy - b * sxy) / df / sxx) : NaN;
  const half = t975(df) * se;
  return { slope: b, r2: syy === 0 ? 1 : (sxy * sxy) / (sxx * syy), se, low: b - half, high: b + half };
}
