'use strict'
// The words of a comparison come from its evidence (harness/src/prose/compare.ts): an interval that holds
// 1x is "no difference", one value is "no verdict", and "faster" needs the interval above 1x and the
// median beyond the noise floor.
const { test } = require('node:test')
const { internal } = require('./helpers')
const { compared, rangeLevel } = internal('prose/compare')

const rounds = (median, half, n = 7) => Array.from({ length: n }, (_, i) => median + half * ((2 * i) / (n - 1) - 1))

test('an interval above 1x and a median beyond the noise floor is "faster", with the interval beside it', (t) => {
  const c = compared({ values: rounds(1.14, 0.06) }, { a: 'after', b: 'before', more: 'faster', less: 'slower' })
  t.assert.strictEqual(c.kind, 'more')
  t.assert.ok(c.low > 1, `low ${c.low}`)
  t.assert.match(
    c.words,
    /^after was faster than before by 14 %: 1\.14x \(median of 7 rounds, 95 % interval 1\.\d\dx–1\.\d\dx\)$/,
  )
  t.assert.match(
    c.text,
    /^<!--wb:comparison kind=more median=1\.14 low=1\.\d+ high=1\.\d+ n=7 noise=0\.02 level=0\.95-->after was/,
  )
})

test('an interval that holds 1x says no difference, whatever the median; one below says slower', (t) => {
  const same = compared({ values: rounds(1.08, 0.2) })
  t.assert.strictEqual(same.kind, 'same')
  t.assert.match(
    same.words,
    /^no difference this run could see: 1\.08x \(median of 7 rounds, 95 % interval 0\.\d+x–1\.\d+x\)$/,
  )
  t.assert.doesNotMatch(same.words, /faster|slower/)
  const less = compared({ values: rounds(0.7, 0.05) }, { more: 'larger', less: 'smaller' })
  t.assert.strictEqual(less.kind, 'less')
  t.assert.match(less.words, /^smaller by 30 %: 0\.70x/)
})

test('a large ratio reads as a ratio, never as "faster by 1,373 %"', (t) => {
  const c = compared({ values: rounds(14.7, 0.5, 10) })
  t.assert.match(c.words, /^faster: 14\.7x \(median of 10 rounds, 95 % interval 1\d\.\dx–1\d\.\dx\)$/)
  t.assert.doesNotMatch(c.words, /by [\d,.]+ %/)
})

test('one value has no interval and no verdict; two to five values are judged by their range, its confidence said, and four or fewer carry none', (t) => {
  const one = compared({ values: [1.19] })
  t.assert.strictEqual(one.kind, 'one')
  t.assert.strictEqual(one.words, '1.19x from one round: no interval, so no verdict')
  t.assert.ok(Number.isNaN(one.low))
  // three values all above 1x: their range holds the median 3 times in 4, too seldom for a verdict
  const three = compared({ values: [1.52, 2.2, 2.6], of: 'processes' })
  t.assert.strictEqual(three.kind, 'few')
  t.assert.strictEqual(three.level, 0.75)
  t.assert.strictEqual(
    three.words,
    '2.20x (median of 3 processes, range 1.52x–2.60x, a 75 % interval): too few processes for a verdict',
  )
  const five = compared({ values: [1.52, 1.9, 2.2, 2.4, 2.6] })
  t.assert.strictEqual(five.kind, 'more')
  t.assert.strictEqual(five.words, 'faster: 2.20x (median of 5 rounds, range 1.52x–2.60x, a 94 % interval)')
  t.assert.strictEqual(rangeLevel(5), 0.9375)
  // a range with equal ends is written with the digits that tell them apart, never "1.02x–1.02x"
  const close = compared({ values: [1.021, 1.0249] })
  t.assert.doesNotMatch(close.words, /(\d\.\d+x)–\1/)
})

test('an interval that excludes 1x by less than the noise floor is no difference to call', (t) => {
  const c = compared({ values: rounds(1.01, 0.005, 20) })
  t.assert.strictEqual(c.kind, 'noise')
  t.assert.match(c.words, /^no difference beyond the 2\.0 % noise floor: 1\.01x/)
  t.assert.strictEqual(compared({ values: rounds(1.01, 0.005, 20), noise: 0 }).kind, 'more')
})

test('an interval given by the caller (margins of error, a widened interval) is the one judged and printed', (t) => {
  const c = compared(
    { values: [1.01], interval: { low: 0.98, high: 1.03, level: null, what: 'their margins of error allow' } },
    { a: 'lazy', b: 'eager', more: 'faster', less: 'slower' },
  )
  t.assert.strictEqual(c.kind, 'same')
  t.assert.strictEqual(
    c.words,
    'no difference between lazy and eager this run could see: 1.01x (their margins of error allow 0.98x–1.03x)',
  )
  t.assert.throws(() => compared({ values: [Number.NaN] }), /at least one finite value/)
})
