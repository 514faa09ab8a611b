'use strict'
// Integration (make test-integration): the harness against live servers.
const { test } = require('node:test')
const h = require('@workbook/harness')
const { SHORT, spin } = require('../unit/helpers')
const nb01 = require('../../notebooks/01-slow-etag-server.ts')

// A timing, so here rather than in the unit tests: run alone, a timer after no work fires on time,
// one after 300 ms of work at least 270 ms late, a 10x margin (here, quiet: 0.19-0.37 ms late,
// medians of 3 in 5 runs).
test('timerDrift: work longer than the timer delays it; no work does not', async (t) => {
  const [none, long] = await h.timerDrift({ delayMs: 30, loopSizes: [0, 300], repeats: 3, work: spin })
  const all = JSON.stringify({ none, long })
  t.assert.ok(long.lateMs >= 270, `300 ms of work made the timer only ${long.lateMs} ms late: ${all}`)
  t.assert.ok(none.lateMs < long.lateMs / 10, `no work, yet the timer was ${none.lateMs} ms late: ${all}`)
})

test('freshLoad starts one app per run and refuses a bad run count', async (t) => {
  const r = await nb01.freshLoad('hello-http', { connections: 5, ...SHORT }, 2)
  t.assert.strictEqual(r.runs.length, 2)
  t.assert.notStrictEqual(r.runs[0].url, r.runs[1].url) // two apps, two ports
  t.assert.deepStrictEqual(
    r.reqPerSec.runs,
    r.runs.map((x) => x.reqPerSec.median),
  )
  await t.assert.rejects(nb01.freshLoad('hello-http', {}, 0), /runs must be an integer >= 1/)
})
