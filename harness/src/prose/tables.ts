import type { Cell } from "../charts/tables";
import { fmt } from "../core/format";
import type { LoadResult } from "../load/types";

/** Compact rows for markdownTable(): the figures a load test is read by, one row per run or per load. */

/** One row per measured run: req/s, latency, the server's CPU time per request, both processes' CPU, saturation. */
export function runRows(r: LoadResult): Record<string, Cell>[] {
  return r.runs.map((f) => ({
    run: f.run,
    "req/s": f.reqPerSec,
    "p50 ms": f.latencyMs.p50,
    "p99 ms": f.latencyMs.p99,
    "server µs/request": f.cpuPerRequestUs,
    "server CPU %": f.serverCpuPercent,
    "generator CPU %": f.generatorCpuPercent,
    "generator saturated": f.saturated ? "yes" : "no",
  }));
}

/** One row for a whole load (its runs' medians and ranges), labelled. */
export function loadRow(label: string, r: LoadResult): Record<string, Cell> {
  return {
    "": label,
    "req/s": r.reqPerSec.median,
    "req/s range": `${fmt(r.reqPerSec.min)}–${fmt(r.reqPerSec.max)}`,
    "server µs/request": r.cpuPerRequestUs?.median ?? null,
    "p50 ms": r.latencyMs.p50,
    "p99 ms": r.latencyMs.p99,
    "generator saturated": `${r.generator.saturatedRuns} of ${r.runs.length} runs`,
  };
}
