'use strict'
// Made-up evidence for the diagnosis's rules (tools/src/diagnose/verdict.ts), shared by its unit tests:
// a server's readings with every field the rules read, set where no rule fires unless a test says so.
const { tool } = require('./helpers')
const { decide } = tool('diagnose/verdict')

const frame = (name, file, category, share) => ({
  name,
  file,
  line: 3,
  category,
  selfShare: share,
  totalShare: share,
  attributedShare: share,
})
const SHARES = { gc: 0.03, regex: 0, syncIo: 0, native: 0, app: 0.12, dependency: 0, framework: 0, node: 0.85 }
// What full collections left (MB), before the watch, after it, then a second apart with the profilers on.
const AT = [0, 4, 4.2, 5.3, 6.4, 7.5]
const points = (heap, external = heap.map(() => 1)) =>
  heap.map((h, i) => ({ at: AT[i], served: i * 1000, heapMB: h, externalMB: external[i], profiling: i >= 2 }))
const FLAT = points([6, 6.02, 6.6, 6.63, 6.65, 6.65])
// The app's CPU by thread, % of a core: the main thread and V8's helpers, nothing elsewhere.
const THREADS = {
  mainCpuPercent: 55,
  offMainCpuPercent: 5,
  byKind: { main: 55, pool: 0, workers: 0, v8: 5, other: 0 },
  cores: 1,
  poolThreads: 0,
  poolSizeSet: null,
}
function evidence(over = {}) {
  const hog = frame('score', 'srv.js', 'user', 0.9)
  const { shares, ...rest } = over
  return {
    seconds: 4,
    samples: 20,
    reqPerSec: 5000,
    latencyP50Ms: 2,
    latencyP99Ms: 5,
    cpuPerRequestMs: 0.2,
    latencyOverCpu: 10,
    elu: 0.6,
    cpuPercent: 60,
    threads: THREADS,
    stallMs: 3,
    maxStallMs: 12,
    gcShare: 0.05,
    gcCount: 40,
    gcByKind: { minor: 200 },
    heap: { startMB: 10, endMB: 10.2, slopeMBps: 0.05, r2: 0.1, keptStartMB: 6, keptEndMB: 6, keptMBps: 0 },
    rss: { startMB: 70, endMB: 71, slopeMBps: 0.2 },
    external: { startMB: 1, endMB: 1, keptStartMB: 1, keptEndMB: 1, keptMBps: 0 },
    memory: { points: FLAT },
    busy: { shares: { ...SHARES, ...shares }, busySamples: 1000, regex: null },
    handoff: null,
    allocMBps: 50,
    syncIoShare: 0,
    hot: [hog],
    hottestLine: { line: 5, samples: 90, share: 0.9, text: 'x += Math.sqrt(i)', file: 'srv.js', name: 'score' },
    allocationSites: [frame('render', 'srv.js', 'user', 0.8)],
    busyShare: 0.6,
    generatorSaturated: false,
    flame: { hot: [hog], hottestUser: hog },
    allocations: { hot: [] },
    ...rest,
  }
}
// The rules on fixed lines, whatever calibration ships (tests/unit/diagnose-recorded.test.js judges
// recorded evidence by the shipped ones).
const LINES = {
  ...tool('diagnose/thresholds').THRESHOLDS,
  BUSY_ELU: 0.9,
  GC_SHARE: 0.34,
  BLOCKING_SHARE: 0.13,
  FAR_ABOVE_REFERENCE: 4,
  WAITING_LATENCY_OVER_CPU: 20,
  OFF_MAIN_SHARE: 0.5,
  MEMORY_GROWTH: 0.02,
  LONG_STALL_MS: 20,
  RUNNER_UP_CLOSE: 0.8,
  NEAR: 1.25,
}
const judge = (over) => decide(evidence(over), LINES)
const only = (kind, share = 0.9) => ({
  ...SHARES,
  node: 1 - share,
  [kind]: share,
  gc: 0,
  app: kind === 'app' ? share : 0,
})

module.exports = { frame, SHARES, AT, points, FLAT, THREADS, evidence, LINES, judge, only }
