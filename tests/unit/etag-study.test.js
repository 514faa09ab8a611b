'use strict'
const { test } = require('node:test')
const h = require('@workbook/harness')
const { SHORT } = require('./helpers')

test('timerDrift: a busy loop longer than the timer delays it; a short one does not', async (t) => {
  const rows = await h.timerDrift({ delayMs: 30, loopSizes: [10, 3e7], repeats: 1 })
  t.assert.strictEqual(rows.length, 2)
  t.assert.ok(rows[0].actualMs >= 29 && rows[0].actualMs < 60, `short loop: ${rows[0].actualMs}`)
  t.assert.ok(rows[1].blockedMs > 30 && rows[1].actualMs >= rows[1].blockedMs, `long loop: ${JSON.stringify(rows[1])}`)
})

test('freshLoad starts one app per run and refuses a bad run count', async (t) => {
  const r = await h.freshLoad('hello-http', { runs: 2, connections: 5, ...SHORT })
  t.assert.strictEqual(r.runs.length, 2)
  t.assert.notStrictEqual(r.runs[0].url, r.runs[1].url) // two apps, two ports
  const f = h.stepFigures(r, 'hello')
  t.assert.strictEqual(f.p99Ms.runs.length, 2)
  await t.assert.rejects(h.freshLoad('hello-http', { runs: 0 }), /runs must be an integer >= 1/)
})

test('published etag ratios: the fix is like for like, the optimisation is not', (t) => {
  const { fix, optimisation } = h.publishedEtagRatios()
  t.assert.ok(fix.ratio > 200 && fix.likeForLike)
  t.assert.ok(optimisation.ratio > 1.6 && optimisation.ratio < 1.7 && !optimisation.likeForLike)
  t.assert.throws(() => h.publishedEtagRow('faster'), /no row for step "faster"/)
})

test('doctorCharts draws doctor samples and refuses empty data', (t) => {
  const stat = (i) => ({ timestamp: 1000 + i * 10, delay: i, cpu: 0.5, memory: { rss: 5e7, heapTotal: 3e7, heapUsed: 2e7, external: 0 }, handles: 3 })
  const chart = h.doctorCharts({ traceEvent: [], processStat: [stat(0), stat(1), stat(2)], analysis: { issues: {}, issueCategory: 'none' } }, { title: 'doctor' })
  t.assert.match(chart.svg, /Event-loop delay/)
  t.assert.throws(() => h.doctorCharts({ traceEvent: [], processStat: [], analysis: { issues: {}, issueCategory: 'none' } }, { title: 'x' }))
})

test('calleesOf refuses a frame that is not in the flame graph', (t) => {
  const flame = h.analyse({ nodes: [{ id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1, columnNumber: 0 }, children: [] }], startTime: 0, endTime: 1, samples: [1], timeDeltas: [1] })
  t.assert.throws(() => h.calleesOf(flame, { name: 'afterListener' }), /no frame named "afterListener"/)
})
