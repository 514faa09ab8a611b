import { type Chart, flameChart, fmt, lines, pct, type SeriesPoint, stack } from "@workbook/harness";
import { type ProbeSample, perSecond } from "@workbook/harness/internal";
import type { Collected } from "./collect";
import type { Evidence } from "./evidence";
import { THRESHOLDS as T } from "./thresholds";

/** The diagnosis's charts: the watched seconds as the probe saw them, the load, and the two profiles. */
export interface DiagnosisCharts {
  /** Event loop, stalls, memory and GC per sample interval, with the thresholds dashed. */
  timeline: Chart;
  /** req/s, latency and CPU per second of the watched load. */
  load: Chart;
  /** Where the CPU went, and where the bytes were allocated (the profiled seconds). */
  flame: Chart;
  allocations: Chart;
}

const MB = 2 ** 20;

function timeline(c: Collected): Chart {
  const x = (s: ProbeSample) => Math.round((s.mono - c.window.from) / 100) / 10;
  const of = (f: (s: ProbeSample) => number, series: string): SeriesPoint[] =>
    c.samples.map((s) => ({ x: x(s), y: f(s), series }));
  const common = { xLabel: "seconds", height: 150, dots: false };
  return stack(
    [
      lines([...of((s) => s.elu * 100, "loop busy"), ...of((s) => (s.cpuMs / s.intervalMs) * 100, "CPU")], {
        ...common,
        title: `Event-loop utilisation and CPU, % (dashed: ${pct(T.BUSY_ELU)}, the "saturated" line)`,
        yLabel: "%",
        reference: T.BUSY_ELU * 100,
      }),
      lines(
        of((s) => Math.max(s.delayMaxMs, s.intervalMs - c.sampleMs), "stall"),
        {
          ...common,
          title: `Longest stall of the loop, ms (dashed: ${T.LONG_STALL_MS} ms, long stalls above it)`,
          yLabel: "ms",
          reference: T.LONG_STALL_MS,
        },
      ),
      lines(
        [
          ...of((s) => s.heapUsed / MB, "heapUsed"),
          ...of((s) => s.external / MB, "external"),
          ...of((s) => s.rss / MB, "RSS"),
        ],
        {
          ...common,
          title: "Memory, MB",
          yLabel: "MB",
        },
      ),
      lines(
        of((s) => (s.gcMs / s.intervalMs) * 100, "GC"),
        {
          ...common,
          title: "Garbage collection, % of the time",
          yLabel: "%",
        },
      ),
    ],
    {
      title: `${c.app} ${c.route}: what the probe saw`,
      subtitle: `one point per ${c.sampleMs} ms sample, over the ${fmt((c.window.to - c.window.from) / 1000)} s watched (no profiler attached)`,
    },
  );
}

export function diagnosisCharts(c: Collected, e: Evidence): DiagnosisCharts {
  return {
    timeline: timeline(c),
    load: perSecond(c.load, { title: `${c.app} ${c.route}: the watched load, per second` }),
    flame: flameChart(e.flame, { title: `${c.app} ${c.route}: where the CPU goes (the profiled seconds)` }),
    allocations: flameChart(e.allocations, {
      title: `${c.app} ${c.route}: where the bytes are allocated (every allocation, sampled)`,
    }),
  };
}
