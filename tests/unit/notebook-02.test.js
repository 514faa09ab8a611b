'use strict'
// notebooks/02-event-loop.ts: reading contention results and the loop's report (recorded figures, no load is sent).
const path = require('node:path')
const { test } = require('node:test')
const { internal } = require('./helpers')
const here = require(path.join(__dirname, '..', '..', 'notebooks', '02-event-loop.ts'))

const { latencySummary } = internal('load/outcome')
const { combinePaced } = internal('load/contention')

// A PacedResult as pacedLoad returns it, from (latency, status) pairs.
function paced(label, pairs, lag = { p99: 1, max: 2 }) {
  const samples = pairs.map(([latencyMs, status], i) => ({ t: i / 100, latencyMs, status }))
  const answered = samples.filter((s) => s.latencyMs !== null)
  const ok = answered.filter((s) => s.status >= 200 && s.status < 300)
  const statusCodes = {}
  for (const s of answered) statusCodes[s.status] = (statusCodes[s.status] ?? 0) + 1
  const ofStatus = (code) => answered.filter((s) => String(s.status) === code).map((s) => s.latencyMs)
  return {
    label,
    url: 'http://127.0.0.1:1/',
    rate: 100,
    seconds: 1,
    due: samples.length,
    sent: samples.length,
    totalRequests: answered.length,
    skipped: 0,
    errors: 0,
    timeouts: 0,
    errorCodes: {},
    retried: 0,
    statusCodes,
    non2xx: answered.length - ok.length,
    latencyMs: latencySummary(answered.map((s) => s.latencyMs)),
    okLatencyMs: latencySummary(ok.map((s) => s.latencyMs)),
    statusLatencyMs: Object.fromEntries(Object.keys(statusCodes).map((c) => [c, latencySummary(ofStatus(c))])),
    sendLagMs: lag,
    samples,
  }
}

test('runPercentiles: figures run by run, the median run and the range, by status; generatorLag: the worst run', (t) => {
  const run = (base, lag) => ({
    cheap: paced(
      'v /cheap',
      Array.from({ length: 100 }, (_, i) => [base + i, i % 4 === 0 ? 503 : 200]),
      lag,
    ),
    background: null,
    metrics: null,
  })
  const runs = [run(0, { p99: 1, max: 3 }), run(100, { p99: 7, max: 9 }), run(10, { p99: 2, max: 2 })]
  const r = { key: 'v', seconds: 1, cheap: combinePaced(runs.map((x) => x.cheap)), background: null, runs }
  // Latencies go through the same histogram as autocannon's (three significant digits): compared to the ms.
  const ms = (xs) => xs.map(Math.round)
  const all = here.runPercentiles(r)
  t.assert.deepStrictEqual(ms(all.p99.runs), [98, 198, 108])
  t.assert.strictEqual(Math.round(all.p99.median), 108)
  t.assert.strictEqual(all.p99.median, r.cheap.p99.median, "the same figure as the totals' p99 of the runs")
  t.assert.deepStrictEqual([...ms([all.p99.min, all.p99.max]), all.count], [98, 198, 300])
  const refused = here.runPercentiles(r, { status: 503 })
  t.assert.strictEqual(refused.count, 75)
  t.assert.deepStrictEqual(ms(refused.p50.runs), [48, 148, 58])
  const accepted = here.runPercentiles(r, { status: '2xx' })
  t.assert.strictEqual(accepted.count, 225)
  t.assert.deepStrictEqual(ms(accepted.p50.runs), [50, 150, 60], 'the 2xx answers alone (any: 49, 149, 59)')
  const none = here.runPercentiles(r, { status: 404 })
  t.assert.ok(none.count === 0 && Number.isNaN(none.p99.median), 'no answer of that status: no figure')
  t.assert.ok(Number.isNaN(here.runPercentiles(r, { load: 'background' }).p99.median), 'no background: no figure')
  t.assert.deepStrictEqual(r.cheap.sendLagMs, { p99: 7, max: 9 })
  const lag = here.generatorLag([r])
  t.assert.deepStrictEqual([lag.p99, lag.max, lag.worst, lag.loads], [7, 9, 'v /cheap', 1])
  // The background load's lag is not part of the measured latencies: left out, however late.
  const bg = paced('v /expensive', [[500, 200]], { p99: 40, max: 40 })
  const both = here.generatorLag([{ ...r, background: combinePaced([bg]) }])
  t.assert.deepStrictEqual([both.p99, both.worst], [7, 'v /cheap'])
  // Of several results, the worst is the one with the highest p99, wherever it comes.
  const calm = { ...r, cheap: combinePaced([paced('w /cheap', [[1, 200]], { p99: 3, max: 30 })]) }
  const two = here.generatorLag([r, calm])
  t.assert.deepStrictEqual([two.p99, two.max, two.worst, two.loads], [7, 30, 'v /cheap', 2])
})

test('loopUtilisation: the median ELU of the runs that read the metrics; none read, no figure', (t) => {
  const run = (elu) => ({ metrics: elu === null ? null : { histogram: { elu } } })
  t.assert.strictEqual(here.loopUtilisation({ runs: [run(0.2), run(0.6), run(0.3), run(null)] }), 0.3)
  t.assert.ok(Number.isNaN(here.loopUtilisation({ runs: [run(null)] })))
})

test('blockedStretches: a row longer than its interval is a block ending at its t; the whole seconds inside it had no sample', (t) => {
  const row = (tt, intervalMs, samples, delayMaxMs) => ({
    t: tt,
    intervalMs,
    samples,
    delayP50Ms: delayMaxMs,
    delayP99Ms: delayMaxMs,
    delayMaxMs,
    elu: 0.1,
  })
  const snapshot = {
    loopMetrics: 1,
    app: 'x',
    pid: 1,
    resolutionMs: 10,
    intervalMs: 1000,
    startedAt: 0,
    elapsedMs: 6000,
    info: {},
    histogram: {},
    series: [row(1, 1000, 97, 11), row(4.05, 3050, 30, 2760.4), row(5.05, 1000, 97, 12)],
    current: row(5.5, 450, 44, 11),
  }
  const [s, ...rest] = here.blockedStretches(snapshot)
  t.assert.strictEqual(rest.length, 0, 'only the long row')
  t.assert.deepStrictEqual([s.from, s.to, s.ms, s.intervalMs, s.emptySeconds], [1.29, 4.05, 2760.4, 3050, [2, 3]])
  t.assert.deepStrictEqual(
    here.blockedStretches({ ...snapshot, series: [row(1.6, 1600, 30, 1300)] })[0].emptySeconds,
    [],
    'a 1.3 s block from 0.3 s to 1.6 s covers no whole second',
  )
  // A block the app has not yet written a row for shows in the unfinished interval.
  const open = here.blockedStretches({ ...snapshot, series: [], current: row(3, 3000, 1, 2500) })
  t.assert.deepStrictEqual(
    open.map((b) => [b.from, b.to, b.emptySeconds]),
    [[0.5, 3, [1, 2]]],
  )
})
