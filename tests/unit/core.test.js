'use strict'
// harness/src/core: the order targets take turns in, the statistics every figure is quoted with, how
// numbers are written in prose, and waiting with a time limit.
const { test } = require('node:test')
const { spawnSync } = require('node:child_process')
const path = require('node:path')
const { internal } = require('./helpers')

const { roundOrder, assertUniqueKeys } = internal('core/order')
const { spread, cv, pairedRatios, slope, commonSlope } = internal('core/stats')
const { fmt, pct, pctChange, times, plural } = internal('core/format')
const { within } = internal('core/time')
const { WorkbookError } = internal('core/errors')

// order.ts

test('roundOrder "rotate": every target once per round, and each target goes first in turn', (t) => {
  const apps = ['express', 'fastify', 'koa', 'hono']
  const rounds = Array.from({ length: 8 }, (_, r) => roundOrder(apps, r))
  for (const order of rounds) t.assert.deepStrictEqual([...order].sort(), [...apps].sort())
  t.assert.deepStrictEqual(
    rounds.slice(0, 4).map((o) => o[0]),
    apps,
  )
  t.assert.deepStrictEqual(rounds[1], ['fastify', 'koa', 'hono', 'express'])
  t.assert.deepStrictEqual(rounds[4], rounds[0])
  // the default is "rotate", and the list it is given is left alone
  t.assert.deepStrictEqual(roundOrder(apps, 2, 'rotate'), rounds[2])
  t.assert.deepStrictEqual(apps, ['express', 'fastify', 'koa', 'hono'])
  t.assert.deepStrictEqual(roundOrder([], 3), [])
})

test('roundOrder "alternate": every other round runs backwards; for a pair it is the same as rotate', (t) => {
  const apps = ['a', 'b', 'c']
  t.assert.deepStrictEqual(roundOrder(apps, 0, 'alternate'), ['a', 'b', 'c'])
  t.assert.deepStrictEqual(roundOrder(apps, 1, 'alternate'), ['c', 'b', 'a'])
  t.assert.deepStrictEqual(roundOrder(apps, 2, 'alternate'), ['a', 'b', 'c'])
  for (let r = 0; r < 6; r++) {
    t.assert.deepStrictEqual(roundOrder(apps, r, 'alternate').sort(), ['a', 'b', 'c'])
    t.assert.deepStrictEqual(roundOrder(['x', 'y'], r, 'alternate'), roundOrder(['x', 'y'], r, 'rotate'))
  }
  t.assert.deepStrictEqual(apps, ['a', 'b', 'c'])
})

test('roundOrder "random": every target once per round, the same order for the same round, both orders of a pair', (t) => {
  const apps = ['a', 'b', 'c']
  const rounds = Array.from({ length: 40 }, (_, r) => roundOrder(apps, r, 'random'))
  for (const order of rounds) t.assert.deepStrictEqual([...order].sort(), apps)
  t.assert.deepStrictEqual(roundOrder(apps, 7, 'random'), rounds[7])
  t.assert.deepStrictEqual(apps, ['a', 'b', 'c'])
  // A pair: each order in about half of 200 rounds, and not simply alternating (ABBA would be 100 of each, in turn).
  const pairs = Array.from({ length: 200 }, (_, r) => roundOrder(['x', 'y'], r, 'random').join(''))
  const xFirst = pairs.filter((p) => p === 'xy').length
  t.assert.ok(xFirst > 70 && xFirst < 130, `${xFirst} of 200 rounds started with x`)
  t.assert.ok(
    pairs.some((p, i) => i > 0 && p === pairs[i - 1]),
    'some order repeats in the next round',
  )
})

test('assertUniqueKeys names the function and the repeated key, as a WB_BAD_OPTION error', (t) => {
  t.assert.doesNotThrow(() => assertUniqueKeys('compare', ['express', 'fastify', 'koa']))
  t.assert.doesNotThrow(() => assertUniqueKeys('compare', []))
  t.assert.throws(
    () => assertUniqueKeys('compare', ['express', 'fastify', 'koa', 'fastify']),
    (err) =>
      err instanceof WorkbookError &&
      err.code === 'WB_BAD_OPTION' &&
      /^compare: keys must be unique, "fastify" appears twice/.test(err.message),
  )
})

// stats.ts

test('pairedRatios divides round by round over the rounds both have, and is null without any', (t) => {
  const r = pairedRatios([2000, 3300, 4000], [1000, 1100, 1000, 5000])
  t.assert.deepStrictEqual(r.runs, [2, 3, 4])
  t.assert.strictEqual(r.median, 3)
  t.assert.deepStrictEqual([r.min, r.max], [2, 4])
  t.assert.strictEqual(pairedRatios([], [1, 2]), null)
  t.assert.strictEqual(pairedRatios([1, 2], []), null)
})

test('slope: a perfect line gives its slope with R² 1, noise without a trend gives R² near 0', (t) => {
  const line = Array.from({ length: 20 }, (_, x) => ({ x, y: 2.5 * x + 7 }))
  const fit = slope(line)
  t.assert.ok(Math.abs(fit.slope - 2.5) < 1e-12, String(fit.slope))
  t.assert.ok(Math.abs(fit.r2 - 1) < 1e-12, String(fit.r2))

  // a sawtooth around 50 MB: it moves a lot but does not climb
  const saw = [50, 58, 44, 61, 47, 53, 40, 62, 49, 55, 43, 60, 46, 57, 41, 59, 48, 52, 45, 54]
  const flat = slope(saw.map((y, x) => ({ x, y })))
  t.assert.ok(flat.r2 < 0.1, `R² of noise: ${flat.r2}`)
  t.assert.ok(Math.abs(flat.slope) < 0.3, `slope of noise: ${flat.slope}`)

  // a climb of 3 MB/s under the same noise still reads as a climb that fits a line
  const climb = slope(saw.map((y, x) => ({ x, y: y + 30 * x })))
  t.assert.ok(Math.abs(climb.slope - 30) < 0.5, String(climb.slope))
  t.assert.ok(climb.r2 > 0.95, String(climb.r2))

  // a loose trend: slope 0.8, R² 0.64 (worked out by hand)
  const loose = slope([
    { x: 0, y: 0 },
    { x: 1, y: 2 },
    { x: 2, y: 1 },
    { x: 3, y: 3 },
  ])
  t.assert.ok(Math.abs(loose.slope - 0.8) < 1e-12 && Math.abs(loose.r2 - 0.64) < 1e-12, JSON.stringify(loose))

  t.assert.deepStrictEqual(slope([{ x: 1, y: 3 }]), {
    slope: Number.NaN,
    r2: Number.NaN,
    se: Number.NaN,
    low: Number.NaN,
    high: Number.NaN,
  })
  t.assert.ok(
    Number.isNaN(
      slope([
        { x: 2, y: 1 },
        { x: 2, y: 9 },
      ]).slope,
    ),
    'no slope over a single x',
  )
  t.assert.deepStrictEqual(
    slope([
      { x: 0, y: 5 },
      { x: 1, y: 5 },
      { x: 2, y: 5 },
    ]),
    { slope: 0, r2: 1, se: 0, low: 0, high: 0 },
  )
  // the slope's standard error and 95 % interval (t with n - 2 = 2 degrees of freedom: 4.303), by hand:
  // the line 0.3 + 0.8x leaves -0.3 0.9 -0.9 0.3 (sum of squares 1.8), Sxx 5: se = sqrt(1.8 / 2 / 5)
  const se = Math.sqrt(0.18)
  t.assert.ok(Math.abs(loose.se - se) < 1e-12, JSON.stringify(loose))
  t.assert.ok(Math.abs(loose.low - (0.8 - 4.303 * se)) < 1e-9 && Math.abs(loose.high - (0.8 + 4.303 * se)) < 1e-9)
})

test('commonSlope: one slope through groups of points, each with its own intercept: a step between them is not a slope', (t) => {
  // 0.1 a second before and after a step of 5 (the profilers starting): the slope is 0.1, not the step's
  const pts = [
    { x: 0, y: 10, group: false },
    { x: 4, y: 10.4, group: false },
    { x: 4.2, y: 15.42, group: true },
    { x: 5.3, y: 15.53, group: true },
    { x: 6.4, y: 15.64, group: true },
  ]
  const fit = commonSlope(pts)
  t.assert.ok(Math.abs(fit.slope - 0.1) < 1e-9, JSON.stringify(fit))
  t.assert.ok(slope(pts).slope > 0.5, 'one line through all of them reads the step as growth')
  // a group of one point says nothing about the slope; no degree of freedom left, no interval
  t.assert.ok(Number.isNaN(commonSlope(pts.slice(0, 3)).se))
  t.assert.ok(Math.abs(commonSlope(pts.slice(0, 3)).slope - 0.1) < 1e-9)
})

test('Spread: cv is the standard deviation over the mean, 0 for identical values or a single run', (t) => {
  t.assert.strictEqual(spread([100, 100, 100]).cv, 0)
  t.assert.strictEqual(spread([42]).cv, 0)
  t.assert.ok(Math.abs(spread([80, 100, 120]).cv - 0.2) < 1e-12) // sample sd 20, mean 100
  t.assert.ok(Math.abs(cv([10, 30]) - Math.SQRT2 / 2) < 1e-12) // sd 14.14, mean 20
  // a value that could not be measured is kept in runs but left out of the figures
  const s = spread([10, Number.NaN, 30])
  t.assert.deepStrictEqual([s.median, s.min, s.max, s.runs.length], [20, 10, 30, 3])
  t.assert.strictEqual(s.relativeSpread, 1)
})

// format.ts

test('fmt writes integers whole with thousands separators and other numbers with a few significant digits', (t) => {
  t.assert.strictEqual(fmt(7), '7')
  t.assert.strictEqual(fmt(12345), '12,345')
  t.assert.strictEqual(fmt(1234567), '1,234,567')
  t.assert.strictEqual(fmt(-20000), '-20,000')
  t.assert.strictEqual(fmt(1234.56), '1,235')
  t.assert.strictEqual(fmt(123.4), '123')
  t.assert.strictEqual(fmt(12.345), '12.3')
  t.assert.strictEqual(fmt(1.2345), '1.23')
  t.assert.match(fmt(0.5), /^0\.50?$/)
  t.assert.strictEqual(fmt(Number.NaN), 'n/a')
  t.assert.strictEqual(fmt(Number.POSITIVE_INFINITY), 'n/a')
})

test('fmt and times write a number that rounds into the next band as that band does: 1,000, not 1000', (t) => {
  // 999.6 and 1000.4 are both "1,000"; before, the first read "1000" beside the second's "1,000"
  t.assert.deepStrictEqual([999.6, 1000.4, -999.6].map(fmt), ['1,000', '1,000', '-1,000'])
  t.assert.deepStrictEqual([99.96, 9.996, 0.99996, 99999.6].map(fmt), ['100', '10.0', '1.00', '100,000'])
  t.assert.deepStrictEqual([123.4, 12.34, 1.234, 0.1234].map(fmt), ['123', '12.3', '1.23', '0.123'])
  t.assert.deepStrictEqual([9.996, 99.96, 999.6, 1.5].map(times), ['10.0x', '100x', '1,000x', '1.50x'])
})

test('fmt keeps at least two significant digits of a small number instead of rounding it to 0.00', (t) => {
  t.assert.match(fmt(0.0042), /^0\.0042$/)
  t.assert.match(fmt(0.0123), /^0\.012[0-9]?$/)
})

test('pct, times and plural', (t) => {
  t.assert.strictEqual(pct(0.123), '12 %')
  t.assert.strictEqual(pct(0.1234, 1), '12.3 %')
  t.assert.strictEqual(pct(1.5), '150 %')
  t.assert.strictEqual(pct(Number.NaN), 'n/a')
  t.assert.strictEqual(times(1.523), '1.52x')
  t.assert.strictEqual(times(12.34), '12.3x')
  t.assert.strictEqual(times(1234.4), '1,234x')
  t.assert.strictEqual(times(Number.POSITIVE_INFINITY), 'n/a')
  t.assert.strictEqual(plural(1, 'run'), '1 run')
  t.assert.strictEqual(plural(3, 'run'), '3 runs')
  t.assert.strictEqual(plural(0, 'load'), '0 loads')
  t.assert.strictEqual(plural(2, 'child', 'children'), '2 children')
})

test('pctChange: how far a ratio is from 1x, two significant digits under 10 %, whole above, either way', (t) => {
  t.assert.deepStrictEqual([1.0024, 1.02, 1.041, 0.92, 1.0996, 1.14, 0.5, 13.04].map(pctChange), [
    '0.24 %',
    '2.0 %',
    '4.1 %',
    '8.0 %',
    '10 %',
    '14 %',
    '50 %',
    '1,204 %',
  ])
})

// time.ts

test('within: the value when it comes first, the fallback when the time runs out, the error when it fails', async (t) => {
  t.assert.strictEqual(await within(Promise.resolve('answer'), 5000, 'late'), 'answer')
  const started = Date.now()
  t.assert.strictEqual(await within(new Promise(() => {}), 30, 'late'), 'late')
  const waited = Date.now() - started
  t.assert.ok(waited >= 25 && waited < 2000, `waited ${waited} ms for a limit of 30 ms`)
  t.assert.strictEqual(await within(new Promise(() => {}), 0, 'late'), 'late')
  // A negative limit is no wait: a value that comes 5 ms later loses. Its timer is made after
  // within's own, so it fires later however late the loop runs (timers fire in order of expiry).
  let answer
  const slow = new Promise((resolve) => {
    answer = resolve
  })
  const raced = within(slow, -10, 'late')
  setTimeout(() => answer('slow'), 5)
  t.assert.strictEqual(await raced, 'late')
  await t.assert.rejects(within(Promise.reject(new Error('boom')), 5000, 'late'), /boom/)
})

test('within never keeps the process alive: a script waiting on it with a long limit exits at once', (t) => {
  const time = path.join(__dirname, '..', '..', 'harness', 'dist', 'core', 'time.js')
  const script = `require(${JSON.stringify(time)}).within(new Promise(() => {}), 60000, 'late').then(() => process.exit(3))`
  const started = Date.now()
  const r = spawnSync(process.execPath, ['-e', script], { timeout: 8000, encoding: 'utf8' })
  t.assert.strictEqual(r.error, undefined, 'the script exited by itself')
  t.assert.strictEqual(r.status, 0, r.stderr)
  t.assert.ok(Date.now() - started < 5000)
})
