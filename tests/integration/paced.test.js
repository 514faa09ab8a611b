'use strict'
// Integration (make test-integration): contention measured on a live app that blocks.
const { test } = require('node:test')
const wb = require('@workbook/harness')
const { fixture } = require('../unit/helpers')
const { startApp } = require('../unit/helpers').internal('apps/start')

test('contention: a blocking background route raises the cheap route tail; metrics are read', async (t) => {
  const app = await startApp({ entry: fixture('paced-target.js') }, { probe: '/ok', env: { BLOCK_MS: '100' } })
  t.after(() => app.stop())
  const res = await wb.contentionRounds(
    [
      { key: 'alone', target: app, cheap: { path: '/ok', rate: 100 }, background: null },
      {
        key: 'blocked',
        target: app,
        cheap: { path: '/ok', rate: 100 },
        background: { path: '/slow', rate: 5 },
        metrics: true,
      },
    ],
    { rounds: 2, seconds: 1, warmupSeconds: 0.5 },
  )
  t.assert.strictEqual(res.alone.runs.length, 2)
  t.assert.strictEqual(res.alone.background, null)
  t.assert.strictEqual(res.blocked.background.totalRequests, 10)
  // 5 blocks of 100 ms a second: half the cheap requests wait behind one, up to 100 ms, against about
  // 1 ms alone (a fixture that differs 50x; the check asks for 5x and at least 20 ms).
  const [alone, blocked] = [res.alone.cheap.latencyMs, res.blocked.cheap.latencyMs]
  t.assert.ok(
    blocked.p90 > 20 && blocked.p90 > 5 * alone.p90,
    `alone ${JSON.stringify(alone)} blocked ${JSON.stringify(blocked)}`,
  )
  t.assert.ok(res.blocked.cpuPerRequestUs.median > 0, 'server CPU per request is read for an app target')
  const m = res.blocked.runs[0].metrics
  t.assert.strictEqual(m.info.test, true)
  t.assert.strictEqual(m.app, 'paced-target')
  t.assert.ok(m.histogram.max > 30, `loop delay max ${m.histogram.max}`)
  t.assert.strictEqual(res.alone.runs[0].metrics, null)
  await t.assert.rejects(
    wb.contentionRounds([
      { key: 'a', target: app },
      { key: 'a', target: app },
    ]),
    /unique/,
  )
})
