'use strict'
// Integration (make test-integration): the harness against live servers.
const { test } = require('node:test')
const h = require('@workbook/harness')
const hi = require('@workbook/harness/internal')
const { SHORT, spin } = require('../unit/helpers')
const { stepFigures } = require('../unit/helpers').internal('load/fresh')

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
  const r = await hi.freshLoad('hello-http', { runs: 2, connections: 5, ...SHORT })
  t.assert.strictEqual(r.runs.length, 2)
  t.assert.notStrictEqual(r.runs[0].url, r.runs[1].url) // two apps, two ports
  const f = stepFigures(r, 'hello')
  t.assert.strictEqual(f.p99Ms.runs.length, 2)
  await t.assert.rejects(hi.freshLoad('hello-http', { runs: 0 }), /runs must be an integer >= 1/)
})
