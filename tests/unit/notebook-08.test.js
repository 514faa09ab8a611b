'use strict'
// Notebook 08's own helpers (notebooks/08-is-it-faster.ts, beside the notebook; Node strips its types):
// the sentences and rows its drift section prints, on made-up ratios.
const { test } = require('node:test')
const path = require('node:path')

const here = require(path.join(__dirname, '..', '..', 'notebooks', '08-is-it-faster.ts'))

test('changeText: a signed change in per cent, its interval and what that lets a reader say', (t) => {
  t.assert.strictEqual(here.changeText([1.031]), '+3.1 %: one run, no interval')
  t.assert.strictEqual(
    here.changeText([0.95, 0.97]),
    '-4.0 % [-5.0 % to -3.0 %], the range of 2 (a 50 % interval): too few for a verdict',
  )
  t.assert.strictEqual(
    here.changeText([0.99, 1.02, 1.014, 0.98, 1.03]),
    '+1.4 % [-2.0 % to +3.0 %], the range of 5 (a 94 % interval): no difference seen',
  )
  t.assert.match(
    here.changeText([0.9, 0.92, 0.94, 0.96, 0.98, 1.0]),
    /^-5\.0 % \[-\d+\.\d % to [-+]\d\.\d %\], 95 % interval: (a difference|no difference seen)$/,
  )
  t.assert.strictEqual(here.changeText([NaN]), 'n/a')
})

test('roundSpread: half the middle half of the ratios; NaN for fewer than four', (t) => {
  // sorted: 0.5 0.96 0.98 1.0 1.0 1.02 1.04 2.0; the quarters fall on 0.98 and 1.04, whatever the outliers
  t.assert.ok(Math.abs(here.roundSpread([1.0, 2.0, 0.96, 1.04, 0.5, 0.98, 1.02, 1.0]) - 0.03) < 1e-9)
  t.assert.ok(Number.isNaN(here.roundSpread([1, 1, 1])))
})

test('designRow: what the drift table shows of a design', (t) => {
  const row = here.designRow({
    design: 'in turns',
    reqPerSec: [1.02, 0.98, 1.01, 0.99],
    cpuPerRequest: [1, 1.02, 0.98, 1],
    loads: [],
    report: '',
  })
  t.assert.deepStrictEqual(row, {
    design: 'in turns',
    values: 4,
    'second over first, req/s': '+0.0 % [-2.0 % to +2.0 %], the range of 4 (a 88 % interval): too few for a verdict',
    'first over second, CPU per request':
      '+0.0 % [-2.0 % to +2.0 %], the range of 4 (a 88 % interval): too few for a verdict',
    'half the middle spread of single rounds, CPU': '1.0 %',
  })
})

test("sharedCoreLine: both processes' CPU on the shared core, added; a null reading said, never summed", (t) => {
  const load = (cpu) => ({ server: cpu === null ? null : { cpuPercent: { median: cpu } } })
  t.assert.match(here.sharedCoreLine([load(49.5), load(50.5)]), /used 100 % of one core \(49\.5 % \+ 50\.5 %\)/)
  t.assert.match(here.sharedCoreLine([load(49.5), load(null)]), /could not be read/)
  t.assert.doesNotMatch(here.sharedCoreLine([load(49.5), load(null)]), /49\.5/)
})
