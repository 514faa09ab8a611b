'use strict'
const { test } = require('node:test')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { internal, secondSamples } = require('./helpers')

test('charts render to SVG with a title, to PNG, and to a text fallback', (t) => {
  const h = require('@workbook/harness')
  const { toPng } = internal('charts/render')
  const { plot } = internal('charts/plot')
  const chart = h.barsWithSpread(
    [
      { label: 'a', median: 10, min: 8, max: 12 },
      { label: 'b', median: 20, min: 19, max: 25 },
    ],
    { title: 'Two bars', unit: 'req/s' },
  )
  t.assert.match(chart.svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/)
  t.assert.match(chart.svg, /Two bars/)
  t.assert.match(chart.text, /Two bars[\s\S]*b\s+20\s+19\s+25/)
  const png = toPng(chart.svg)
  t.assert.deepStrictEqual([...png.subarray(1, 4)], [...Buffer.from('PNG')])
  t.assert.throws(() => plot({ marks: [], title: 'figure' }, { title: 'x' }), /returned a <figure>/)
})

test('saveResults writes results/<notebook>.json with the fingerprint', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-results-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const code = `
    const h = require('@workbook/harness');
    const file = h.saveResults('99-test', { answer: 42 });
    process.stdout.write(file);
    try { h.saveResults('../escape', {}) } catch (e) { process.stdout.write('\\n' + e.message) }`
  const out = require('node:child_process')
    .execFileSync(process.execPath, ['-e', code], {
      env: { ...process.env, WORKBOOK_RESULTS_DIR: dir },
      cwd: path.join(__dirname, '..', '..'),
    })
    .toString()
    .split('\n')
  t.assert.strictEqual(out[0], path.join(dir, '99-test.json'))
  const saved = JSON.parse(fs.readFileSync(out[0], 'utf8'))
  t.assert.strictEqual(saved.data.answer, 42)
  t.assert.strictEqual(saved.fingerprint.node, process.version)
  t.assert.match(out[1], /must be a plain file name/)
})

test("perSecond draws a result's per-second series; refuses one without samples", (t) => {
  const h = require('@workbook/harness/internal')
  const result = { label: 'hello-http /', series: secondSamples(['warm-up', 'run 1', 'run 2'], 3) }
  const chart = h.perSecond(result)
  t.assert.match(chart.svg, /hello-http \//)
  t.assert.match(chart.svg, /requests per second[\s\S]*latency per second/)
  t.assert.match(chart.svg, /warm-up \(discarded\) comes first; 2 measured runs/)
  t.assert.match(chart.text, /run 2/)
  t.assert.doesNotMatch(h.perSecond(result, { warmup: false, title: 'measured only' }).text, /warm-up/)
  t.assert.throws(() => h.perSecond({ label: 'empty', series: [] }), /"empty" has no per-second samples/)
})

test('end labels of series that end close together are nudged apart; distant ones stay on their line', (t) => {
  const h = require('@workbook/harness')
  const { labelNudges } = internal('charts/lines')
  const linear = (v) => v / 100
  const close = labelNudges(
    [
      { x: 3, y: 75, series: 'server' },
      { x: 3, y: 74, series: 'generator' },
      { x: 3, y: 10, series: 'far' },
    ],
    200,
    linear,
  )
  const dy = Object.fromEntries(close.map((e) => [e.series, e.dy]))
  // 75 and 74 are 2 px apart on a 200 px axis: the lower label moves down to 11 px below the upper one.
  t.assert.deepStrictEqual(dy, { server: 0, generator: 9, far: 0 })
  const svg = h.lines(
    [
      { x: 1, y: 80, series: 'server' },
      { x: 3, y: 75, series: 'server' },
      { x: 1, y: 60, series: 'generator' },
      { x: 3, y: 74, series: 'generator' },
    ],
    { title: 'cpu', xLabel: 'seconds', yLabel: '%' },
  ).svg
  const ys = ['server', 'generator'].map((name) => {
    // Plot puts dx/dy on the mark's group and the point's position on the text.
    const m = svg.match(
      new RegExp(`translate\\(5,([-\\d.]+)\\)"><text[^>]*transform="translate\\([\\d.]+,([\\d.]+)\\)"[^>]*>${name}<`),
    )
    return m && Number(m[1]) + Number(m[2])
  })
  t.assert.ok(ys[0] !== null && ys[1] !== null, svg.slice(0, 300))
  t.assert.ok(ys[1] - ys[0] >= 10, `labels ${ys[0]} and ${ys[1]} overlap`)
  // an end with no place on the axis (NaN) keeps its label unmoved and moves no other
  const odd = labelNudges([{ x: 3, y: Number.NaN, series: 'none' }, ...close], 200, linear)
  t.assert.deepStrictEqual(Object.fromEntries(odd.map((e) => [e.series, e.dy])), { none: 0, ...dy })
  // and a NaN among a chart's values leaves every end label drawn
  const withNaN = h.lines(
    [
      { x: 1, y: Number.NaN, series: 'server' },
      { x: 3, y: 75, series: 'server' },
      { x: 3, y: 20, series: 'generator' },
    ],
    { title: 'cpu', xLabel: 'seconds', yLabel: '%' },
  ).svg
  for (const name of ['server', 'generator']) t.assert.match(withNaN, new RegExp(`>${name}</text>`))
})

test('axis labels fit their margin and read as numbers: 40k, not a clipped "0,000"; 0.1, not SI "100m"', (t) => {
  const h = require('@workbook/harness')
  const tickTexts = (svg) => [...svg.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1])
  const big = h.lines(
    [
      { x: 1, y: 12000, series: 'a' },
      { x: 2, y: 40000, series: 'a' },
    ],
    { title: 'big', xLabel: 'x', yLabel: 'req/s' },
  )
  t.assert.ok(tickTexts(big.svg).includes('40k'), tickTexts(big.svg).join(' '))
  t.assert.ok(!tickTexts(big.svg).some((s) => /\d,\d{3}/.test(s)))
  const log = h.lines(
    [
      { x: 1, y: 0.1, series: 'p50' },
      { x: 2, y: 30, series: 'p50' },
    ],
    { title: 'log', xLabel: 'x', yLabel: 'ms', logY: true },
  )
  const labels = tickTexts(log.svg)
  t.assert.ok(labels.includes('0.1') && labels.includes('10'), labels.join(' '))
  t.assert.ok(!labels.some((s) => /\dm$/.test(s)), labels.join(' '))
  const pct = h.percentileBars([{ label: 'a', p50: 0.1, p90: 0.3, p99: 3 }], { title: 'p', log: true })
  t.assert.ok(!tickTexts(pct.svg).some((s) => /\dm$/.test(s)), tickTexts(pct.svg).join(' '))
  const { tickLabel } = internal('charts/axes')
  t.assert.strictEqual(tickLabel(12500), '12.5k')
  t.assert.strictEqual(tickLabel(2500), '2,500')
  t.assert.strictEqual(tickLabel(0.3), '0.3')
})

// lines' options for panels stacked over one x axis (clinic doctor's four panels in notebook 01).
const twoPoints = [
  { x: 1, y: 80, series: 'a' },
  { x: 3, y: 75, series: 'a' },
]
const xTicks = (svg) =>
  [...svg.match(/<g aria-label="x-axis tick"[\s\S]*?<\/g>/)[0].matchAll(/translate\(([\d.]+),([\d.]+)\)/g)].map((m) =>
    Number(m[1]),
  )
const xTickLabels = (svg) =>
  [...svg.match(/<g aria-label="x-axis tick label"[\s\S]*?<\/g>/)[0].matchAll(/>([^<]+)<\/text>/g)].map((m) => m[1])

test("lines' xDomain fixes the x axis' extent; without it the axis spans the points", (t) => {
  const h = require('@workbook/harness')
  const meta = { title: 't', xLabel: 'seconds', yLabel: '%' }
  const fixed = h.lines(twoPoints, { ...meta, xDomain: [0, 10] }).svg
  t.assert.deepStrictEqual([xTickLabels(fixed)[0], xTickLabels(fixed).at(-1)], ['0', '10'])
  const free = xTickLabels(h.lines(twoPoints, meta).svg)
  t.assert.deepStrictEqual([free[0], free.at(-1)], ['1', '3'])
})

test("lines' marginLeft and marginRight place the plot; by default the y labels and end labels size them", (t) => {
  const h = require('@workbook/harness')
  const meta = { title: 't', xLabel: 'seconds', yLabel: '%', xDomain: [0, 3] }
  // The x axis' first and last ticks (0 and 3) sit on the plot's left and right edges; the width is 640.
  const set = xTicks(h.lines(twoPoints, { ...meta, marginLeft: 60, marginRight: 110 }).svg)
  t.assert.deepStrictEqual([set[0], set.at(-1)], [60, 640 - 110])
  const { textWidth } = internal('charts/theme')
  const free = xTicks(h.lines(twoPoints, meta).svg)
  t.assert.ok(free[0] > 0 && free[0] < 60, `left ${free[0]}`)
  t.assert.ok(Math.abs(free.at(-1) - (640 - 20 - textWidth('a'))) < 1e-9, `right ${free.at(-1)}`)
})

test("lines' marksX draws an 8 px tick up from the x axis at each x within the axis, and nothing without it", (t) => {
  const h = require('@workbook/harness')
  const meta = { title: 't', xLabel: 'seconds', yLabel: '%', marginLeft: 60, marginRight: 110 }
  const rules = (svg) =>
    [...(svg.match(/<g aria-label="rule"[\s\S]*?<\/g>/)?.[0] ?? '').matchAll(/<line ([^>]*)>/g)].map((m) =>
      Object.fromEntries([...m[1].matchAll(/(\w+)="([\d.]+)"/g)].map(([, k, v]) => [k, Number(v)])),
    )
  const svg = h.lines(twoPoints, { ...meta, xDomain: [0, 3], marksX: [-1, 0.5, 2, 3, 4] }).svg
  const ticks = rules(svg)
  // -1 and 4 lie outside the x axis: left out, not stretching it
  t.assert.deepStrictEqual(
    ticks.map((r) => Math.round(r.x1)),
    [0.5, 2, 3].map((x) => Math.round(60 + (x / 3) * (640 - 170))),
  )
  const axisY = Number(svg.match(/aria-label="x-axis tick"[^>]*><path transform="translate\([\d.]+,([\d.]+)\)/)[1])
  for (const r of ticks) t.assert.deepStrictEqual([r.x1 === r.x2, r.y2, r.y2 - r.y1], [true, axisY, 8])
  // without xDomain the axis is the points' extent (1 to 3), and marks outside it are left out too
  t.assert.strictEqual(rules(h.lines(twoPoints, { ...meta, marksX: [0.5, 2, 4] }).svg).length, 1)
  t.assert.strictEqual(rules(h.lines(twoPoints, meta).svg).length, 0)
  t.assert.strictEqual(h.lines(twoPoints, { ...meta, marksX: [] }).svg, h.lines(twoPoints, meta).svg)
})
