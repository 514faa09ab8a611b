'use strict'
// The pure parts of harness/src/profiles/memory.ts: GC's cost from the probe's totals, and the probe's
// samples as the rows the memory chart draws.
const { test } = require('node:test')
const { internal } = require('./helpers')

const { gcSummary, memoryRows } = internal('profiles/memory')

const MB = 2 ** 20
const near = (a, b) => Math.abs(a - b) < 1e-9

test('gcSummary: the share of the time in GC pauses, pauses per second, and GC time per request', (t) => {
  // 50 ms of pauses in 10 collections over 1 s, serving 1,000 req/s: 5 % of the time, 50 µs a request
  const gc = gcSummary(50, 10, 1000, 1000)
  t.assert.ok(near(gc.share, 0.05), String(gc.share))
  t.assert.ok(near(gc.perSecond, 10), String(gc.perSecond))
  t.assert.strictEqual(gc.totalMs, 50)
  t.assert.ok(near(gc.perRequestUs, 50), String(gc.perRequestUs))

  // over 4 s, the same pauses are a quarter of the share and of the rate
  const longer = gcSummary(50, 10, 4000, 1000)
  t.assert.ok(near(longer.share, 0.0125) && near(longer.perSecond, 2.5), JSON.stringify(longer))
})

test('gcSummary: GC time per request does not grow with the load, where its share of the time does', (t) => {
  // the same app at 10x the load: ten times the GC in the same wall time
  const light = gcSummary(20, 4, 2000, 500)
  const heavy = gcSummary(200, 40, 2000, 5000)
  t.assert.ok(near(heavy.share, 10 * light.share), `${heavy.share} vs ${light.share}`)
  t.assert.ok(near(heavy.perRequestUs, light.perRequestUs), `${heavy.perRequestUs} vs ${light.perRequestUs}`)
  // an app that allocates 10x as much per request at the same speed costs 10x per request
  const wasteful = gcSummary(200, 40, 2000, 500)
  t.assert.ok(near(wasteful.perRequestUs, 10 * light.perRequestUs))
})

test('gcSummary with no wall time gives zeros; with no answers, no figure per answer (NaN, shown as n/a)', (t) => {
  const none = gcSummary(0, 0, 0, 0)
  t.assert.deepStrictEqual(none, { share: 0, perSecond: 0, totalMs: 0, longestMs: 0, perRequestUs: NaN })
  const noAnswers = gcSummary(30, 3, 1000, 0)
  t.assert.ok(near(noAnswers.share, 0.03))
  t.assert.ok(Number.isNaN(noAnswers.perRequestUs))
  for (const v of Object.values(gcSummary(30, 3, 0, 100))) t.assert.ok(Number.isFinite(v), String(v))
})

/**
 * A probe sample: `mono` on the app's monotonic clock (ms), memory in MB (the probe sends bytes). Its
 * wall-clock `t` runs backwards, as a clock stepped by a time sync can: nothing may be read from it.
 */
const sample = (mono, mb, gcMs = 0, intervalMs = 250, gcCount = 0) => ({
  t: 1_700_000_000_000 - mono,
  mono,
  intervalMs,
  rss: mb.rss * MB,
  heapUsed: mb.heapUsed * MB,
  heapTotal: mb.heapTotal * MB,
  external: mb.external * MB,
  arrayBuffers: mb.arrayBuffers * MB,
  gcMs,
  gcCount,
  elu: 0.5,
  cpuMs: 100,
  delayP50Ms: 0,
  delayP99Ms: 0,
  delayMaxMs: 0,
})

test('memoryRows: seconds from the first sample, memory in MB, GC as a share of each interval', (t) => {
  const t0 = 1_700_000_000_000
  const rows = memoryRows([
    sample(t0, { rss: 60, heapUsed: 10, heapTotal: 20, external: 2, arrayBuffers: 1 }, 5, 250, 1),
    sample(t0 + 250, { rss: 80, heapUsed: 30, heapTotal: 40, external: 2, arrayBuffers: 1 }, 25, 250, 3),
    sample(t0 + 1500, { rss: 600, heapUsed: 300, heapTotal: 400, external: 20, arrayBuffers: 10 }, 0, 1250),
  ])
  t.assert.deepStrictEqual(
    rows.map((r) => r.t),
    [0, 0.25, 1.5],
  )
  t.assert.deepStrictEqual(rows[2], {
    t: 1.5,
    rssMB: 600,
    heapUsedMB: 300,
    heapTotalMB: 400,
    externalMB: 20,
    arrayBuffersMB: 10,
    gcShare: 0,
    gcCount: 0,
  })
  t.assert.ok(near(rows[0].gcShare, 0.02) && near(rows[1].gcShare, 0.1), `${rows[0].gcShare} ${rows[1].gcShare}`)
  t.assert.deepStrictEqual(
    rows.map((r) => r.gcCount),
    [1, 3, 0],
  )
  t.assert.strictEqual(rows[1].heapUsedMB, 30)
})

test('memoryRows: no samples, no rows; an interval of 0 ms has no GC share rather than NaN', (t) => {
  t.assert.deepStrictEqual(memoryRows([]), [])
  const [row] = memoryRows([sample(5, { rss: 1, heapUsed: 1, heapTotal: 1, external: 0, arrayBuffers: 0 }, 3, 0)])
  t.assert.strictEqual(row.gcShare, 0)
  t.assert.strictEqual(row.t, 0)
})
