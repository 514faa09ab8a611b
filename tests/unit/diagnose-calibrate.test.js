'use strict'
// Setting the diagnosis's lines (tools/src/diagnose/calibrate.ts): where a line goes between two
// groups of readings, which readings each line is set from, the confusion matrix and leave-one-out.
const { test } = require('node:test')
const { tool } = require('./helpers')
const { lineBetween, fitThresholds, confusion, leaveOneOut } = tool('diagnose/calibrate')

test('a line between groups that do not overlap sits midway between their nearest readings, on their scale', (t) => {
  t.assert.strictEqual(lineBetween([10, 30], [90, 100], 'ratio'), Math.sqrt(30 * 90)) // as many times either side
  t.assert.strictEqual(lineBetween([0.1, 0.3], [0.9, 1], 'share'), (0.3 + 0.9) / 2) // as many points either side
  t.assert.strictEqual(lineBetween([], [40], 'ratio'), 20) // nothing below, no floor: half the lowest
  t.assert.strictEqual(lineBetween([0.01], [10], 'ratio', 0.1), 1) // no lower than the floor allows
  t.assert.ok(Number.isNaN(lineBetween([1], [], 'share')))
})

test('where groups overlap, the line misclassifies fewest, in the widest gap', (t) => {
  // one stray reading below (0.55) among the readings above: 1 error wherever the line goes between
  // 0.30 and 0.40, and that gap is wider than any other with 1 error
  const line = lineBetween([0.27, 0.28, 0.3, 0.55], [0.4, 0.45, 0.7], 'share')
  t.assert.ok(Math.abs(line - 0.35) < 1e-12, String(line))
})

// What full collections left (MB): flat, or a leak of 0.4 MB a second from 10 MB.
const points = (perSecond) =>
  [0, 4, 4.2, 5.3, 6.4, 7.5].map((at, i) => ({
    at,
    served: i * 1000,
    heapMB: 10 + perSecond * at + (i >= 2 ? 0.5 : 0),
    externalMB: 1,
    profiling: i >= 2,
  }))
// Evidence with only what the fit and the rules read.
const ev = (o) => ({
  elu: 0.99,
  latencyOverCpu: 10,
  latencyP50Ms: 5,
  cpuPerRequestMs: 0.5,
  stallMs: 5,
  maxStallMs: 20,
  heap: { keptMBps: 0, startMB: 1, endMB: 1, keptStartMB: 1, keptEndMB: 1 },
  external: { keptMBps: 0, keptStartMB: 1, keptEndMB: 1 },
  memory: { points: points(0) },
  threads: {
    mainCpuPercent: 90,
    offMainCpuPercent: 5,
    byKind: { main: 90, pool: 0, workers: 0, v8: 5, other: 0 },
    cores: 1,
    poolThreads: 0,
    poolSizeSet: null,
  },
  handoff: null,
  rss: { startMB: 50, endMB: 50 },
  busy: { shares: { gc: 0.02, regex: 0, syncIo: 0, native: 0, app: 0.03, dependency: 0, node: 0.95 }, regex: null },
  gcByKind: {},
  gcCount: 0,
  gcShare: 0,
  allocMBps: 1,
  hot: [],
  allocationSites: [],
  hottestLine: null,
  flame: { hot: [], hottestUser: null },
  seconds: 4,
  cpuPercent: 99,
  ...o,
})
const shares = (o) => ({ gc: 0.02, regex: 0, syncIo: 0, native: 0, app: 0.03, dependency: 0, node: 0.95, ...o })
const SET = [
  {
    case: 'cpu',
    expected: 'blocked',
    saturated: true,
    evidence: ev({ busy: { shares: shares({ app: 0.8, node: 0.18 }) } }),
  },
  {
    case: 'cpu',
    expected: 'blocked',
    saturated: true,
    evidence: ev({ busy: { shares: shares({ app: 0.6, node: 0.38 }) } }),
  },
  {
    case: 'churn',
    expected: 'gc-pressure',
    saturated: true,
    evidence: ev({ busy: { shares: shares({ gc: 0.5, app: 0.45, node: 0.05 }) } }),
  },
  {
    case: 'fast',
    expected: 'healthy',
    saturated: null,
    evidence: ev({ busy: { shares: shares({ app: 0.05, node: 0.93 }) } }),
  },
  { case: 'idle', expected: 'healthy', saturated: null, evidence: ev({ elu: 0.1, latencyOverCpu: 4 }) },
  { case: 'waits', expected: 'waiting', saturated: false, evidence: ev({ elu: 0.2, latencyOverCpu: 100 }) },
  {
    case: 'leak',
    expected: 'memory-climbing',
    saturated: null,
    evidence: ev({ memory: { points: points(0.4) } }),
  },
  {
    case: 'pool',
    expected: 'off-main-thread',
    saturated: null,
    evidence: ev({
      elu: 0.3,
      latencyOverCpu: 10,
      threads: { ...ev({}).threads, byKind: { main: 10, pool: 80, workers: 0, v8: 5, other: 0 } },
    }),
  },
]

test('each line is set from the readings of the servers it tells apart', (t) => {
  const T = fitThresholds(SET)
  t.assert.strictEqual(T.BUSY_ELU, (0.2 + 0.99) / 2) // waiting's loop against the saturated ones
  t.assert.strictEqual(T.GC_SHARE, (0.02 + 0.5) / 2) // GC churn against every other saturated loop
  t.assert.strictEqual(T.BLOCKING_SHARE, (0.05 + 0.6) / 2) // the fast server against the CPU-bound
  t.assert.strictEqual(T.WAITING_LATENCY_OVER_CPU, Math.sqrt(4 * 100)) // the idle server against waiting
  t.assert.ok(Math.abs(T.MEMORY_GROWTH - Math.sqrt(0.005 * (0.4 / 11))) < 1e-9, String(T.MEMORY_GROWTH)) // the floor against the leak
  t.assert.ok(Math.abs(T.OFF_MAIN_SHARE - (0 + 80 / 95) / 2) < 1e-9, String(T.OFF_MAIN_SHARE)) // the others' 0 against the pool's
  for (const row of confusion(SET, T)) t.assert.strictEqual(row.right, row.of, row.case)
})

test('the confusion matrix counts each verdict, and leave-one-out judges a case by lines set without it', (t) => {
  // a second waiting server, far slower: set without the first, the waiting line moves to it
  const set = [
    ...SET,
    { case: 'slow waits', expected: 'waiting', saturated: false, evidence: ev({ elu: 0.05, latencyOverCpu: 10000 }) },
  ]
  const loo = leaveOneOut(set)
  const waits = loo.find((r) => r.case === 'waits')
  t.assert.strictEqual(waits.thresholds.WAITING_LATENCY_OVER_CPU, Math.sqrt(4 * 10000))
  t.assert.deepStrictEqual([waits.right, waits.of, waits.verdicts], [0, 1, { healthy: 1 }])
  t.assert.strictEqual(loo.find((r) => r.case === 'fast').right, 1)
})
