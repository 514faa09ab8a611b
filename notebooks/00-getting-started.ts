// Notebook 00's own helpers (the shared harness, `wb`, keeps what two notebooks use).
import type * as wb from "@workbook/harness";

/** A run's saturation as a table says it (null: the generator's CPU was not read). */
const SATURATED = { true: "yes", false: "no", null: "not measured" };

/** One row per measured run: req/s, latency, the server's CPU time per request, both processes' CPU, saturation. */
export function runRows(r: wb.LoadResult): Record<string, string | number | null>[] {
  return r.runs.map((f) => ({
    run: f.run,
    "req/s": f.reqPerSec,
    "p50 ms": f.latencyMs.p50,
    "p75 ms": f.latencyMs.p75,
    "p90 ms": f.latencyMs.p90,
    "p99 ms": f.latencyMs.p99,
    "server µs/request": f.cpuPerRequestUs,
    "server CPU %": f.serverCpuPercent,
    [`${r.generator.name} CPU %`]: f.generatorCpuPercent,
    "generator saturated": SATURATED[String(f.saturated) as keyof typeof SATURATED],
  }));
}
