import { badOption } from "../core/errors";
import { fmt } from "../core/format";
import { SATURATION_CPU_PERCENT } from "../core/settings";
import { lines } from "./lines";
import { type Chart, type ChartMeta, stack } from "./plot";
import { PERCENTILE_COLOURS, PROCESS_COLOURS } from "./theme";

/** One second of a load test, as the live chart and a result's `series` hold it. */
export interface SecondSample {
  /** "warm-up", "run 1", "run 2", ... */
  run: string;
  /** Seconds since the start of that run. */
  second: number;
  reqPerSec: number;
  latencyP50Ms: number;
  latencyP99Ms: number;
  /** The server's CPU in that second, % of one core (from its own counters); null without a process to read. */
  serverCpuPercent: number | null;
  /** The load generator's CPU in that second (its main thread), % of one core. */
  generatorCpuPercent: number;
}

/** x positions on one time axis across the warm-up and the runs. */
function onOneAxis(samples: readonly SecondSample[]): (SecondSample & { x: number })[] {
  let offset = 0;
  let prevRun = "";
  let prevEnd = 0;
  return samples.map((s) => {
    if (s.run !== prevRun) {
      offset = prevEnd;
      prevRun = s.run;
    }
    prevEnd = offset + s.second;
    return { ...s, x: offset + s.second };
  });
}

/**
 * req/s per second (one line per run) above p50 and p99 latency per second and the CPU of the server
 * and of the load generator per second, on one time axis across the warm-up and the runs. The live
 * chart and perSecond() both draw this.
 */
export function perSecondChart(samples: readonly SecondSample[], meta: ChartMeta): Chart {
  const xs = onOneAxis(samples);
  const rps = lines(
    xs.map((s) => ({ x: s.x, y: s.reqPerSec, series: s.run })),
    {
      title: "requests per second",
      xLabel: "seconds",
      yLabel: "req/s",
      height: 190,
    },
  );
  const lat = lines(
    xs.flatMap((s) => [
      { x: s.x, y: s.latencyP50Ms, series: "p50" },
      { x: s.x, y: s.latencyP99Ms, series: "p99" },
    ]),
    { title: "latency per second", xLabel: "seconds", yLabel: "ms", height: 170, colours: PERCENTILE_COLOURS },
  );
  const cpu = lines(
    xs.flatMap((s) => [
      ...(s.serverCpuPercent === null ? [] : [{ x: s.x, y: s.serverCpuPercent, series: "server" }]),
      { x: s.x, y: s.generatorCpuPercent, series: "generator" },
    ]),
    {
      title: `CPU per second, % of one core (dashed: ${SATURATION_CPU_PERCENT} %, the generator's saturation line)`,
      xLabel: "seconds",
      yLabel: "% of a core",
      height: 150,
      colours: PROCESS_COLOURS,
      reference: SATURATION_CPU_PERCENT,
    },
  );
  return stack([rps, lat, cpu], meta);
}

/** The live chart's subtitle: where the test is, and its last second. */
export function liveSubtitle(samples: readonly SecondSample[], status: string): string {
  const last = samples[samples.length - 1];
  return `${status} — last second: ${fmt(last.reqPerSec)} req/s, p99 ${fmt(last.latencyP99Ms)} ms, generator ${fmt(last.generatorCpuPercent)} %`;
}

/**
 * The per-second chart of a load test (a LoadResult, or anything with a label and a series): what
 * its live chart showed, to draw again after the run. Throws when there is no sample.
 */
export function perSecond(
  result: { label: string; series: readonly SecondSample[] },
  meta: Partial<ChartMeta> & { warmup?: boolean } = {},
): Chart {
  const samples = meta.warmup === false ? result.series.filter((s) => s.run !== "warm-up") : result.series;
  if (samples.length === 0) {
    throw badOption(
      "perSecond",
      `"${result.label}" has no per-second samples${meta.warmup === false ? " outside the warm-up" : ""}`,
    );
  }
  const runs = new Set(samples.filter((s) => s.run !== "warm-up").map((s) => s.run)).size;
  const warm = samples.some((s) => s.run === "warm-up") ? "; the warm-up (discarded) comes first" : "";
  return perSecondChart(samples, {
    title: meta.title ?? result.label,
    subtitle: meta.subtitle ?? `each point is one second${warm}; ${runs} measured run${runs === 1 ? "" : "s"}`,
    text: meta.text,
  });
}
