'use strict'
// Integration (make test-integration): the harness against live servers.
const { test } = require('node:test')
const hi = require('@workbook/harness/internal')
const { SHORT } = require('../unit/helpers')
const { stepFigures } = require('../unit/helpers').internal('load/fresh')

test('freshLoad starts one app per run and refuses a bad run count', async (t) => {
  const r = await hi.freshLoad('hello-http', { runs: 2, connections: 5, ...SHORT })
  t.assert.strictEqual(r.runs.length, 2)
  t.assert.notStrictEqual(r.runs[0].url, r.runs[1].url) // two apps, two ports
  const f = stepFigures(r, 'hello')
  t.assert.strictEqual(f.p99Ms.runs.length, 2)
  await t.assert.rejects(hi.freshLoad('hello-http', { runs: 0 }), /runs must be an integer >= 1/)
})
