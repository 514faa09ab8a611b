'use strict'
// Integration (make test-integration): the exercise check measuring on small fixtures, the
// p99-with-background shape of exercise 02 both ways, and an app too slow to answer within a round.
// Its contract without measuring is in tests/unit/exercise-check.test.js; the measured checks of the
// real exercises (both ways, and the bad submissions) are in tests/exercises/.
const { test } = require('node:test')
const h = require('@workbook/harness')
const { checkInProcess, running } = require('@workbook/harness/internal')
const { exerciseSpec: spec } = require('../unit/helpers')

const SHORT = { rounds: 2, duration: 2, warmup: 0 }

test('an app that answers nothing within a round measured 0 req/s: a slow app, not a failed one', async (t) => {
  const r = await checkInProcess(
    spec({
      app: { entry: 'answers-late.js', probe: '/cheap' },
      requests: [{ path: '/cheap' }],
      load: { path: '/late', connections: 10 },
      background: undefined,
      metric: 'reqPerSec',
      threshold: 1.3,
    }),
    { rounds: 2, duration: 1, warmup: 0 },
  )
  t.assert.strictEqual(r.details.stage, 'ratio', r.message)
  t.assert.strictEqual(r.pass, false, r.message)
  t.assert.deepStrictEqual(r.details.submission, [0, 0])
  t.assert.strictEqual(r.ratio, 0)
  t.assert.match(r.message, /in 2 of 2 rounds your app answered no request at all/)
  t.assert.match(r.message, /the exercise asks for at least 1\.3x/)
  t.assert.deepStrictEqual(running(), [])
})

test('a p99 check with background load (the shape of exercise 02) fails the untouched app: identical apps score about 1x', async (t) => {
  const r = await checkInProcess(spec({ app: { entry: 'unblock-start.js', probe: '/cheap' } }), SHORT)
  t.assert.strictEqual(r.details.stage, 'ratio', r.message)
  t.assert.strictEqual(r.pass, false, r.message)
  // The risk is on the high side: a lucky round clearing the threshold. Identical apps stay well under it.
  t.assert.ok(r.ratio < 2, r.message)
  t.assert.ok(Math.max(...r.details.baseline.map((b, i) => b / r.details.submission[i])) < 3, r.message)
  t.assert.deepStrictEqual(running(), [])
})

test('a p99 check with background load (the shape of exercise 02) measures both apps and passes the unblocked one', async (t) => {
  const r = await checkInProcess(spec(), SHORT)
  t.assert.strictEqual(r.details.stage, 'ratio', r.message)
  t.assert.strictEqual(r.details.baseline.length, 2)
  t.assert.strictEqual(r.details.submission.length, 2)
  t.assert.ok(r.pass, r.message)
  t.assert.match(
    r.message,
    /had a p99 latency of .* ms against the starting point's .* ms while \/expensive was asked [\d.]+ times a second \(one request took the starting point [\d.]+ ms, timed by the check: busy 50 % of the time\)/,
  )
  // The pace comes from the measured cost of one /expensive (300 ms of busy loop): about 0.5 x 1000 / 300 ms a second.
  t.assert.ok(
    r.details.background.costMs >= 290 && r.details.background.costMs < 1000,
    JSON.stringify(r.details.background),
  )
  // rateForShare: 0.5 x 1000 / cost ms, to two significant digits (notebook 02's rule, wb.rateForShare).
  t.assert.strictEqual(r.details.background.rate, h.rateForShare(0.5, r.details.background.costMs))
  t.assert.ok(
    Math.abs(r.details.background.rate - 500 / r.details.background.costMs) <= 0.05 * r.details.background.rate,
  )
  t.assert.deepStrictEqual(running(), [])
})

test('an app that never listens fails within its start timeout, with the contract as a hint', async (t) => {
  const started = Date.now()
  const r = await checkInProcess(spec({ app: { entry: 'never-listens.js' }, startTimeoutMs: 1500 }), SHORT)
  t.assert.strictEqual(r.pass, false)
  t.assert.match(r.message, /Your app never listened \(waited 1500 ms\)/)
  t.assert.match(r.hints.join(' '), /'listening' event/)
  t.assert.ok(Date.now() - started < 10_000)
  t.assert.deepStrictEqual(running(), [])
})
