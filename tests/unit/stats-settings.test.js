'use strict'
const { test } = require('node:test')
const { spread, settings } = require('@workbook/harness')
const { mergeCounts } = require('./helpers').internal('core/stats')
const { median, percentile } = require('./helpers').internal('core/stats')

test('median, percentile and spread', (t) => {
  t.assert.strictEqual(median([3, 1, 2]), 2)
  t.assert.strictEqual(median([4, 1, 2, 3]), 2.5)
  t.assert.ok(Number.isNaN(median([])))
  t.assert.strictEqual(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90), 9)
  t.assert.strictEqual(percentile([5], 99), 5)
  const s = spread([100, 80, 120])
  t.assert.deepStrictEqual([s.median, s.min, s.max], [100, 80, 120])
  t.assert.strictEqual(s.relativeSpread, 0.4)
})

test('mergeCounts sums counts by key and leaves its inputs alone', (t) => {
  const a = { 200: 5 }
  t.assert.deepStrictEqual(mergeCounts([a, { 200: 2, 503: 1 }, {}]), { 200: 7, 503: 1 })
  t.assert.deepStrictEqual(a, { 200: 5 })
  t.assert.deepStrictEqual(mergeCounts([]), {})
})

test('the profile switch: quick is shorter than full, anything else is refused', (t) => {
  const saved = process.env.WORKBOOK_PROFILE
  t.after(() => {
    if (saved === undefined) delete process.env.WORKBOOK_PROFILE
    else process.env.WORKBOOK_PROFILE = saved
  })
  delete process.env.WORKBOOK_PROFILE
  const full = settings()
  t.assert.strictEqual(full.name, 'full')
  process.env.WORKBOOK_PROFILE = 'quick'
  const quick = settings()
  t.assert.ok(quick.durationSeconds < full.durationSeconds && quick.repeats <= full.repeats)
  process.env.WORKBOOK_PROFILE = 'fast'
  t.assert.throws(() => settings(), /must be "quick" or "full"/)
})
