/**
 * Little's law on a row of figures, published or measured: requests in flight = req/s x mean
 * latency. With a closed-loop generator (autocannon, wrk) every open connection is waiting on an
 * answer or sending the next request, so in flight should come close to the connections; far below
 * them, something other than the server (the generator, connections that never opened) set the pace.
 */
export interface InFlight {
  /** Short name, for sentences ("optimised", "http"). */
  name: string;
  /** As a table shows the row. */
  label: string;
  /** Connections the run asked for. */
  connections: number;
  reqPerSec: number;
  meanLatencyMs: number;
  /** reqPerSec x meanLatencyMs: the requests in flight on average. */
  inFlight: number;
  /** inFlight / connections: 1 when every connection always waited on the server. */
  busyShare: number;
}

/**
 * One row, published or measured, read with Little's law: the row plus `inFlight` (req/s x mean
 * latency, the requests waiting on an answer on average) and `busyShare` (inFlight / connections).
 * With a closed-loop generator (autocannon, wrk) every open connection is nearly always waiting, so a
 * share far below 1 says something besides the server set the pace: the generator, or connections
 * that never opened. `name` is for sentences, `label` for tables.
 *
 * @example
 * const ours = [fixed].map((l) => wb.littlesLaw({ name: l.label, label: `this run: ${l.label}`,
 *   connections: l.connections, reqPerSec: l.reqPerSec.median, meanLatencyMs: l.latencyMs.mean }));
 */
export function littlesLaw(row: Omit<InFlight, "inFlight" | "busyShare">): InFlight {
  const inFlight = (row.reqPerSec * row.meanLatencyMs) / 1000;
  return { ...row, inFlight, busyShare: inFlight / row.connections };
}
