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

/** One row read with Little's law. */
export function littlesLaw(row: Omit<InFlight, "inFlight" | "busyShare">): InFlight {
  const inFlight = (row.reqPerSec * row.meanLatencyMs) / 1000;
  return { ...row, inFlight, busyShare: inFlight / row.connections };
}
