import * as hdr from "hdr-histogram-js";
import type { GeneratorName } from "../core/generator";
import { mergeCounts, spread } from "../core/stats";
import type { LatencySummary, LoadResult, Outcome, RunFigures } from "./types";

/** The counts and the latency summary every kind of load shares, computed one way. */

/** The status keys of a wrk run that did not count statuses: wrk itself tells only whether an answer was above 399. */
export const WRK_OK = "2xx/3xx";
export const WRK_BAD = "4xx/5xx";

/** Outcomes added up: requests, errors, timeouts, non-2xx answers, and answers by status. */
export function sumOutcomes(list: readonly Outcome[]): Outcome {
  const sum = (f: (o: Outcome) => number) => list.reduce((a, o) => a + f(o), 0);
  return {
    totalRequests: sum((o) => o.totalRequests),
    errors: sum((o) => o.errors),
    timeouts: sum((o) => o.timeouts),
    non2xx: sum((o) => o.non2xx),
    statusCodes: mergeCounts(list.map((o) => o.statusCodes)),
  };
}

/** Answers neither 2xx nor allowed, and errors and timeouts unless allowed: what makes a load test fail. Empty when fine. */
export function outcomeProblems(
  o: Pick<Outcome, "statusCodes" | "errors" | "timeouts">,
  allowed: ReadonlySet<number> = new Set(),
  allowErrors = false,
): string[] {
  const out: string[] = [];
  const unexpected = Object.entries(o.statusCodes).filter(
    ([code]) => !(+code >= 200 && +code <= 299) && code !== WRK_OK && !allowed.has(+code),
  );
  if (unexpected.length) out.push(`unexpected statuses: ${unexpected.map(([c, n]) => `${n} x ${c}`).join(", ")}`);
  if (!allowErrors && (o.errors > 0 || o.timeouts > 0)) out.push(`${o.errors} errors and ${o.timeouts} timeouts`);
  return out;
}

/** A latency histogram in µs, 1 µs to 120 s, three significant digits. */
export const histogram = (): hdr.Histogram =>
  hdr.build({ lowestDiscernibleValue: 1, highestTrackableValue: 120_000_000, numberOfSignificantValueDigits: 3 });

/** The summary of a µs histogram, in ms. */
export function summarise(h: hdr.Histogram): LatencySummary {
  if (h.totalCount === 0) return { count: 0, p50: NaN, p75: NaN, p90: NaN, p99: NaN, mean: NaN, stdev: NaN, max: NaN };
  return {
    count: h.totalCount,
    p50: h.getValueAtPercentile(50) / 1000,
    p75: h.getValueAtPercentile(75) / 1000,
    p90: h.getValueAtPercentile(90) / 1000,
    p99: h.getValueAtPercentile(99) / 1000,
    mean: h.mean / 1000,
    stdev: h.stdDeviation / 1000,
    max: h.maxValue / 1000,
  };
}

/** The summary of latencies given in ms (the same histogram and percentiles as autocannon's loads). */
export function latencySummary(valuesMs: readonly number[]): LatencySummary {
  const h = histogram();
  for (const v of valuesMs) h.recordValue(Math.max(1, Math.round(v * 1000)));
  const s = summarise(h);
  h.destroy();
  return s;
}

/**
 * The load generator's figures over a load's runs: its CPU across them, and in how many it was
 * saturated. All three are null when any run's generator CPU could not be read (WORKBOOK_READINGS=none):
 * whether it kept up is then unknown, never "it did".
 */
export function generatorFigures(
  name: GeneratorName,
  report: string | null,
  runs: readonly RunFigures[],
): LoadResult["generator"] {
  const cpu = runs.map((f) => f.generatorCpuPercent);
  if (!cpu.every((c): c is number => c !== null))
    return { name, report, cpuPercent: null, saturated: null, saturatedRuns: null };
  return {
    name,
    report,
    cpuPercent: spread(cpu),
    saturated: runs.some((f) => f.saturated),
    saturatedRuns: runs.filter((f) => f.saturated).length,
  };
}
