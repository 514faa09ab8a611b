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

export interface Spread {
  median: number;
  min: number;
  max: number;
  /** (max - min) / median: 0.1 means the runs spanned 10 % of the median. */
  relativeSpread: number;
  runs: number[];
}

export function spread(values: readonly number[]): Spread {
  const m = median(values);
  const min = Math.min(...values);
  const max = Math.max(...values);
  return { median: m, min, max, relativeSpread: m ? (max - min) / m : NaN, runs: [...values] };
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
