import { badOption } from "../core/errors";
import { fmt } from "../core/format";
import { notMeasured } from "../core/readings";
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
  /** Answers in that second (autocannon), or requests the app's probe counted (wrk); null when neither could be read. */
  reqPerSec: number | null;
  /** That second's latency percentiles: autocannon's only (wrk reports latency for its whole run); null otherwise. */
  latencyP50Ms: number | null;
  latencyP99Ms: number | null;
  /** The server's CPU in that second, % of one core (from its own counters); null without a process to read. */
  serverCpuPercent: number | null;
  /** The load generator's CPU in that second (its main thread), % of one core; null where it is not read each second (wrk without /proc). */
  generatorCpuPercent: number | null;
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
 * chart and perSecond() both draw this. A panel whose figures no second has is left out (a wrk run
 * has no per-second latency; an app without the probe, no per-second count), and the subtitle says so.
 */
export function perSecondChart(samples: readonly SecondSample[], meta: ChartMeta): Chart {
  const xs = onOneAxis(samples);
  const panels: Chart[] = [];
  const counted = xs.filter((s) => s.reqPerSec !== null);
  if (counted.length)
    panels.push(
      lines(
        counted.map((s) => ({ x: s.x, y: s.reqPerSec!, series: s.run })),
        { title: "requests per second", xLabel: "seconds", yLabel: "req/s", height: 190 },
      ),
    );
  const timed = xs.filter((s) => s.latencyP50Ms !== null && s.latencyP99Ms !== null);
  if (timed.length)
    panels.push(
      lines(
        timed.flatMap((s) => [
          { x: s.x, y: s.latencyP50Ms!, series: "p50" },
          { x: s.x, y: s.latencyP99Ms!, series: "p99" },
        ]),
        { title: "latency per second", xLabel: "seconds", yLabel: "ms", height: 170, colours: PERCENTILE_COLOURS },
      ),
    );
  const cpu = xs.flatMap((s) => [
    ...(s.serverCpuPercent === null ? [] : [{ x: s.x, y: s.serverCpuPercent, series: "server" }]),
    ...(s.generatorCpuPercent === null ? [] : [{ x: s.x, y: s.generatorCpuPercent, series: "generator" }]),
  ]);
  const generatorRead = xs.some((s) => s.generatorCpuPercent !== null);
  if (cpu.length)
    panels.push(
      lines(cpu, {
        title: `CPU per second, % of one core (dashed: ${SATURATION_CPU_PERCENT} %, the generator's saturation line)`,
        xLabel: "seconds",
        yLabel: "% of a core",
        height: 150,
        colours: PROCESS_COLOURS,
        reference: SATURATION_CPU_PERCENT,
      }),
    );
  const missing = [
    counted.length ? null : "no per-second request count (the app has no probe)",
    timed.length ? null : "latency is reported for each whole run, not per second (wrk)",
    cpu.length ? null : `CPU per second ${notMeasured()}`,
    !cpu.length || generatorRead ? null : `the generator's CPU per second ${notMeasured()}`,
  ].filter((m): m is string => m !== null);
  return stack(
    panels,
    missing.length
      ? { ...meta, subtitle: `${meta.subtitle ?? ""}${meta.subtitle ? "; " : ""}${missing.join("; ")}` }
      : meta,
  );
}

/** The live chart's subtitle: where the test is, and its last second. */
export function liveSubtitle(samples: readonly SecondSample[], status: string): string {
  const last = samples[samples.length - 1];
  const figures = [
    last.reqPerSec === null ? null : `${fmt(last.reqPerSec)} req/s`,
    last.latencyP99Ms === null ? null : `p99 ${fmt(last.latencyP99Ms)} ms`,
    last.serverCpuPercent === null ? null : `server ${fmt(last.serverCpuPercent)} %`,
    last.generatorCpuPercent === null ? null : `generator ${fmt(last.generatorCpuPercent)} %`,
  ].filter((f) => f !== null);
  return `${status} — last second: ${figures.join(", ")}`;
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
