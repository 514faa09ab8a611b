/**
 * The lines the diagnosis compares its evidence with (verdict.ts). They are set by calibration, not
 * by hand: scripts/calibrate-diagnosis.js diagnoses every server of tests/fixtures/diagnose/cases.json
 * (ordinary servers with one known problem each, at two or three intensities) many times, on a quiet
 * and on a busy machine, and places each line between the readings of the servers it must tell apart
 * (calibrate.ts, fitThresholds). The values below are that fit, rounded; the ranges each was set
 * from are written beside it. The README gives the confusion matrix and the leave-one-out check.
 */
export interface Thresholds {
  /** Saturated: event-loop utilisation at or above this share. */
  BUSY_ELU: number;
  /**
   * GC pressure: on a saturated loop, garbage collection's share of its busy time. Checked before the
   * other kinds: a server that allocates heavily also spends its own time allocating (building the
   * objects), which the profile books to its code, often as much as the collector's.
   */
  GC_SHARE: number;
  /**
   * Blocked (or synchronous I/O): on a saturated loop under GC_SHARE, the share of its busy time that
   * the largest kind other than Node's own request handling and GC must reach; below it, the loop is
   * busy with Node's request handling, and healthy.
   */
  BLOCKING_SHARE: number;
  /** Waiting: on a loop that is not saturated, a request's latency (p50) over the CPU time it costs. */
  WAITING_LATENCY_OVER_CPU: number;
  /**
   * Busy off the main thread: the share of the process's CPU that went to threads other than the
   * main one (libuv's pool, worker threads; V8's helpers left out where /proc names them).
   */
  OFF_MAIN_SHARE: number;
  /**
   * Memory climbing: the growth of the heap, or of the memory outside it, that full collections leave
   * (the least-squares slope through several of them, memory.ts), as a share of the memory kept at
   * the first, a second; its 95 % interval must clear the line (memory.ts: otherwise undecided).
   */
  MEMORY_GROWTH: number;
  /** Not a line a verdict rests on: a typical stall at least this long is "long stalls", shorter ones "many short stalls". */
  LONG_STALL_MS: number;
  /** Mixed evidence: the runner-up kind of busy time at least this share of the largest. */
  RUNNER_UP_CLOSE: number;
  /** A reading within this factor of its line, either side, is close to the line: the verdict calls it mixed. */
  NEAR: number;
}

// Fitted on 460 diagnoses of the 23 servers on the 2-core machine (10 quiet, 10 busy each; the quick
// profile's 4-s watch, and 7 of the busy runs the full profile's 8 s): `make calibrate-diagnosis-report`.
// Beside each line, the nearest readings either side of it and the servers they came from.
export const THRESHOLDS: Thresholds = {
  BUSY_ELU: 0.51, // under it up to 0.306 (async waits of 5 ms); at or over it from 0.72 (sync read, 100 KB, busy)
  GC_SHARE: 0.34, // others up to 0.308 (sync read, 16 MB); GC churn from 0.364
  BLOCKING_SHARE: 0.16, // healthy under load up to 0.034; blocked and sync I/O from 0.289 (sync read, 100 KB)
  WAITING_LATENCY_OVER_CPU: 16.5, // the others with headroom up to 8.58 (healthy, light load); waiting from 31.8 (5 ms waits)
  OFF_MAIN_SHARE: 0.26, // one quiet run of the 30 servers: the others 0; off the main thread from 0.521 (fs.readFile of 4 MB)
  MEMORY_GROWTH: 0.008, // one quiet run: non-leaks up to 0.0041 (sync read, 16 MB); leaks from 0.0136 (a cache that grows slowly)
  LONG_STALL_MS: 20,
  RUNNER_UP_CLOSE: 0.8,
  NEAR: 1.25,
};
