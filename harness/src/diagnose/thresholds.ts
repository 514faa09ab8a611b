/**
 * The lines the diagnosis compares its evidence with. Each sits between what the fixture servers of
 * tests/fixtures/servers/ read in calibration: 20-odd diagnoses of each on the 2-core machine this was
 * built on, at 10 connections with 1 s warm-up, 4 s watched and 3 s profiled, the app on its own core
 * at nice 19 while another engineer's load tests ran on the same cores (so the ranges include a busy
 * machine and a quiet one). "Blocking" fixtures: cpu-hog.js, sync-file-io.js, heavy-allocation.js.
 * tests/unit/diagnose.test.js checks that each fixture is still told apart.
 */
export const THRESHOLDS = {
  /**
   * Blocked: the loop ran code nearly all the time. The blocking fixtures read 0.98-1.00; but a fast
   * server under a closed-loop load is busy too (healthy 0.35-0.88, the growing cache 0.37-0.98), so
   * utilisation alone does not tell blocked from busy: the stall below does.
   */
  BLOCKED_ELU: 0.9,
  /**
   * Blocked: the median sample interval's longest hold-up of the loop, ms. The blocking fixtures read
   * 40-300 ms (each request's synchronous stretch, with up to nine more queued behind it); healthy
   * 0.5-6.4, the growing cache 1.5-8.1 and slow-waits 0.9-4.0 (a busy machine's scheduling delays).
   */
  BLOCKED_STALL_MS: 20,
  /**
   * Synchronous I/O: the share of busy CPU samples with a Node *Sync file or process call
   * (fs.readFileSync, execSync...) on the stack. sync-file-io.js read 0.66-0.75; every other fixture 0.
   */
  SYNC_IO_SHARE: 0.4,
  /** Waiting: the loop idle most of the time. slow-waits read 0.04-0.08; healthy 0.35-0.88. */
  WAITING_ELU: 0.3,
  /**
   * Waiting: a request's latency (p50) over the CPU time it cost. slow-waits read 121-315x (a 40 ms
   * timer for 0.1-0.4 ms of work); healthy 6-9x and the growing cache 7-8x (at 10 connections:
   * queueing and the round trip); the blocking fixtures 9-28x, but their loops are busy.
   */
  WAITING_LATENCY_OVER_CPU: 20,
  /**
   * GC pressure: garbage-collection pauses over wall time. heavy-allocation.js read 0.33-0.74 and
   * sync-file-io.js 0.23-0.37 (its 16 MB Buffers, freed by the GC); healthy 0.03-0.135 (tens of
   * thousands of small answers a second: scavenges add up, and on a busy machine a pause lasts longer
   * in wall time), the growing cache 0.03-0.06, the CPU hog and slow-waits under 0.02.
   */
  GC_SHARE: 0.2,
  /**
   * Memory climbing: the least-squares slope of heapUsed over the watched seconds, MB/s. The growing
   * cache read 6.6-29; healthy, the CPU hog, slow-waits and sync file I/O -0.11-0.26. The heavy
   * allocator's sawtooth (50-170 MB) gives -13 to +28 (R² up to 0.51): the next check tells those apart.
   */
  HEAP_SLOPE_MB_S: 1,
  /**
   * Memory climbing: the growth of the heap a full GC leaves, from just before the watched seconds to
   * just after, MB/s. The growing cache read 6.9-26; every other fixture -0.16-0.08 (the heavy
   * allocator's garbage, however steep its sawtooth, is gone after a full collection).
   */
  HEAP_KEPT_MB_S: 1,
  /** A reading within this factor of its threshold, either side, is close to the line: the verdict calls it mixed. */
  NEAR: 1.25,
} as const;
