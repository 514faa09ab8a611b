import { lines } from "./lines";
import { type Chart, type ChartMeta, stack } from "./plot";
import { MEMORY_COLOURS, PALETTE } from "./theme";

/** One interval of an app's memory and GC, as the memory charts draw it (profiles/memory.ts makes the rows). */
export interface MemoryRow {
  /** Seconds since the first row. */
  t: number;
  rssMB: number;
  heapUsedMB: number;
  heapTotalMB: number;
  externalMB: number;
  arrayBuffersMB: number;
  /** Garbage collection in the interval: the share of its time spent in GC pauses, and their number. */
  gcShare: number;
  gcCount: number;
}

/**
 * Memory over time: RSS, heap total and heap used (and external memory when there is any) above
 * the share of each interval spent in garbage collection (external memory drawn when a row has more
 * than 1 MB). A heap that saws back to a baseline is churn; a heap whose lows climb is a leak. `rows`:
 * `watchMemory(...).rows`.
 */
export function memoryChart(rows: MemoryRow[], meta: ChartMeta): Chart {
  const series: [keyof MemoryRow, string][] = [
    ["rssMB", "RSS"],
    ["heapTotalMB", "heap total"],
    ["heapUsedMB", "heap used"],
  ];
  if (rows.some((r) => r.externalMB > 1)) series.push(["externalMB", "external"]);
  const colours = {
    RSS: MEMORY_COLOURS.rss,
    "heap total": MEMORY_COLOURS.heapTotal,
    "heap used": MEMORY_COLOURS.heapUsed,
    external: MEMORY_COLOURS.external,
  };
  const mem = lines(
    rows.flatMap((r) => series.map(([k, s]) => ({ x: r.t, y: r[k], series: s }))),
    {
      title: "memory",
      xLabel: "seconds",
      yLabel: "MB",
      height: 220,
      dots: false,
      colours,
    },
  );
  const gc = lines(
    rows.map((r) => ({ x: r.t, y: r.gcShare * 100, series: "time in GC" })),
    {
      title: "share of each interval spent in garbage collection",
      xLabel: "seconds",
      yLabel: "% of time",
      height: 140,
      dots: false,
      colours: { "time in GC": PALETTE[5] },
    },
  );
  return stack([mem, gc], meta);
}
