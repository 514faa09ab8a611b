import type { Cell } from "../charts/tables";
import { fmt } from "../core/format";
import { paceOf } from "../load/report";
import type { LoadResult } from "../load/types";

/** Compact rows for markdownTable(): the figures a load test is read by, one row per run or per load. */

/**
 * One row for a whole load (its runs' medians and ranges), labelled: req/s, transfer/s, the server's
 * CPU time per request, latency at p50, p75, p90 and p99 (wrk's distribution, as the 2022 table
 * gave it), and the generator with the runs it was saturated in ("one run" when there is no range).
 *
 * @example
 * wb.markdown(wb.markdownTable(sweep.map((r) => wb.loadRow(`${r.connections} connections`, r))));
 */
export function loadRow(label: string, r: LoadResult): Record<string, Cell> {
  return {
    "": label,
    "req/s": r.reqPerSec.median,
    // A range needs two runs: one run (the quick profile's single round) says so rather than "a–a".
    "req/s range": r.runs.length > 1 ? `${fmt(r.reqPerSec.min)}–${fmt(r.reqPerSec.max)}` : "one run",
    "transfer/s": bytesText(r.bytesPerSec),
    "server µs/request": r.cpuPerRequestUs?.median ?? null,
    "p50 ms": r.latencyMs.p50,
    "p75 ms": r.latencyMs.p75,
    "p90 ms": r.latencyMs.p90,
    "p99 ms": r.latencyMs.p99,
    "generator saturated":
      r.generator.saturatedRuns === null
        ? `not measured (${r.generator.name})`
        : `${r.generator.saturatedRuns} of ${r.runs.length} runs (${r.generator.name})`,
    // What set the pace (load/report.ts): the generator, the server, the round trip or a fixed rate.
    "set the pace": paceOf(r),
    // Under a CPU quota (JupyterHub, Binder, a container), the periods it held the session back.
    ...(r.throttled ? { "throttled periods": `${r.throttled.throttled} of ${r.throttled.periods}` } : {}),
  };
}

/** "1.36 MB", "820 KB", "512 B" (decimal units, as wrk prints them: per second in a table's column). */
export function bytesText(bytes: number): string {
  if (!Number.isFinite(bytes)) return "—";
  if (bytes >= 1e6) return `${fmt(bytes / 1e6)} MB`;
  if (bytes >= 1e3) return `${fmt(bytes / 1e3)} KB`;
  return `${fmt(bytes)} B`;
}
