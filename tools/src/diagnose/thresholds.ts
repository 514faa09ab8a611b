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
  /**
   * Far above the reference: the app's CPU per request over its reference's (yardstick.ts: its
   * framework's hello route, or a bare node:http answer), measured beside it. At or above it, a server
   * is never healthy; under it, never blocked, whatever the shares of its busy time.
   */
  FAR_ABOVE_REFERENCE: number;
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

// Fitted on 152 diagnoses of the 38 servers on the 2-core machine (2 quiet, 2 beside a busy loop on each
// CPU, each with the quick profile's 4-s watch): `make calibrate-diagnosis-report`. Beside each line, the
// nearest readings either side of it and the servers they came from; two are kept where the fit moved
// into a gap that the same readings leave them in, or would call a server wrong with the other lines.
export const THRESHOLDS: Thresholds = {
  BUSY_ELU: 0.51, // under it up to 0.106 (async waits of 5 ms), and the pbkdf2 pool's loop 0.426 beside a busy loop (its fit, 0.422, would call it blocked); at or over it from 0.738 (sync read, 100 KB, busy)
  GC_SHARE: 0.35, // others up to 0.279 (sync read, 16 MB); GC churn from 0.430
  FAR_ABOVE_REFERENCE: 6.2, // healthy up to 3.17x (an express CRUD list, a page of 1,000 items); blocked from 12.0x (the same list reading req.query for every item, busy)
  BLOCKING_SHARE: 0.21, // where it decides (far above the reference, or sync I/O), healthy and off-main up to 0.0948 (CPU work on two workers); blocked and sync I/O from 0.334 (sync read, 100 KB)
  WAITING_LATENCY_OVER_CPU: 23, // the others with headroom up to 5.18 (healthy, light load); waiting from 104 (5 ms waits)
  OFF_MAIN_SHARE: 0.3, // the others 0; off the main thread from 0.599 (fs.readFile of 4 MB)
  MEMORY_GROWTH: 0.008, // non-leaks up to 0.00417 (sync read, 16 MB); leaks from 0.0235 (a cache that grows slowly); kept from the last round, whose busy runs read the cache down to 0.0049 (README)
  LONG_STALL_MS: 20,
  RUNNER_UP_CLOSE: 0.8,
  NEAR: 1.25,
};
