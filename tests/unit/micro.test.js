'use strict'
// Notebook 05's helpers: micro-benchmarks in a child process (apps/micro/lib/bench.js) and V8's own view
// (natives syntax, --trace-deopt) from notebooks/05-microbench.ts; the request-level prediction, and the
// sentences chosen from a run, from notebooks/05-micro-optimisations.ts.
const { test } = require('node:test')
const h = require('@workbook/harness')
const nb05 = require('../../notebooks/05-micro-optimisations.ts')
const micro = require('../../notebooks/05-microbench.ts')
const { catalogue, page, route } = require('../../apps/lib/shop')
const work = require('../../apps/lib/shop-work')
const { cpuFlame } = require('./helpers').internal('profiles/flame')

const FAST = { timeMs: 40, warmupMs: 10 }

// Which task runs faster, and which one the JIT emptied, are timings: tests/integration/micro.test.js.
test('microbench: every task with ops/s, a margin and whether its result was kept', async (t) => {
  const r = await micro.microbench('micro/lies.js', FAST)
  t.assert.strictEqual(r.file, 'micro/lies.js')
  t.assert.match(r.runtime, /^Node /)
  t.assert.ok(r.floorNs > 0 && r.tasks.length === 4, JSON.stringify(r))
  for (const task of r.tasks) t.assert.ok(task.opsPerSec > 0 && task.rme >= 0 && task.samples > 0, task.name)
  const kept = micro.microTask(r, 'build an object, result kept')
  const dropped = micro.microTask(r, 'build an object, result dropped')
  t.assert.ok(kept.sunk && !dropped.sunk)
  for (const task of r.tasks) t.assert.strictEqual(typeof task.suspect, 'boolean', task.name)
})

test('microbench fails with the script stderr, and past its time limit', async (t) => {
  // osgood.js needs --allow-natives-syntax for V8's private symbols.
  await t.assert.rejects(micro.microbench('micro/osgood.js', FAST), (err) => {
    t.assert.strictEqual(err.code, 'WB_NO_REPORT')
    t.assert.match(err.message, /micro\/osgood\.js failed[\s\S]*SyntaxError/)
    return true
  })
  await t.assert.rejects(
    micro.microbench('micro/serialise.js', { ...FAST, timeoutMs: 300 }),
    /did not finish within 300 ms/,
  )
  await t.assert.rejects(micro.microbench('micro/lies.js', { timeMs: 0 }), /timeMs must be > 0/)
  await t.assert.rejects(micro.microbench('micro/lies.js', { processes: 0 }), /processes must be a whole number >= 1/)
})

test('microbench over several processes: each task keeps the mean of every process and reports their median', async (t) => {
  const r = await micro.microbench('micro/lies.js', { ...FAST, processes: 3 })
  t.assert.strictEqual(r.processes, 3)
  for (const task of r.tasks) {
    t.assert.strictEqual(task.perProcessNs.length, 3, task.name)
    const sorted = [...task.perProcessNs].sort((a, b) => a - b)
    t.assert.strictEqual(task.meanNs, sorted[1], `${task.name}: ${task.perProcessNs}`)
    t.assert.ok(Math.abs(task.opsPerSec - 1e9 / task.meanNs) < 1e-6, task.name)
  }
})

test('microTask names the tasks it has; microGain gives the ratio and the range the margins allow', (t) => {
  const task = (name, opsPerSec, rme) => ({ name, opsPerSec, rme, meanNs: 1e9 / opsPerSec })
  const r = { file: 'micro/x.js', tasks: [task('a', 300, 10), task('b', 100, 10)] }
  t.assert.throws(() => micro.microTask(r, 'c'), /no task named "c"[\s\S]*"a", "b"/)
  const g = micro.microGain(r, 'a', 'b')
  t.assert.strictEqual(g.ratio, 3)
  t.assert.ok(Math.abs(g.low - 270 / 110) < 1e-9 && Math.abs(g.high - 330 / 90) < 1e-9, JSON.stringify(g))
  t.assert.match(
    micro.microGainText(g),
    /^<!--wb:comparison kind=more[^>]*-->`a` was faster than `b`: 3\.00x \(their margins of error allow 2\.45x–3\.67x\)\.$/,
  )
  t.assert.match(
    micro.microGainText(micro.microGain(r, 'b', 'a')),
    /-->`b` was slower than `a`: 0\.33x \(.*0\.27x–0\.41x\)/,
  )
  // margins that hold 1x: no difference, whichever task looked faster
  const close = { file: 'x', tasks: [task('lazy', 101, 3), task('eager', 100, 3)] }
  t.assert.match(
    micro.microGainText(micro.microGain(close, 'lazy', 'eager')),
    /-->no difference between `lazy` and `eager` this run could see: 1\.01x/,
  )
  t.assert.strictEqual(g.processes, 1)
})

test("microGain over several processes: the median of each process's ratio, and their range", (t) => {
  // Per process a/b = 3, 1.5, 2.5: the median is 2.5 (not the ratio of the medians, 200/100 = 2).
  const task = (name, perProcessNs) => ({ name, perProcessNs, rme: 1, meanNs: [...perProcessNs].sort()[1] })
  const r = { file: 'micro/x.js', tasks: [task('a', [100, 200, 120]), task('b', [300, 300, 300])] }
  const g = micro.microGain(r, 'a', 'b')
  t.assert.deepStrictEqual(g, {
    faster: 'a',
    slower: 'b',
    ratio: 2.5,
    low: 1.5,
    high: 3,
    processes: 3,
    each: [3, 1.5, 2.5],
  })
  t.assert.match(
    micro.microGainText(g),
    /-->`a` over `b`: 2\.50x \(median of 3 processes, range 1\.50x–3\.00x, a 75 % interval\): too few processes for a verdict\.$/,
  )
})

test("v8View: V8's inline caches, tiers and a wrong-map deopt, from apps/micro/shapes-v8.js", async (t) => {
  const v = await micro.v8View('micro/shapes-v8.js')
  const sites = Object.fromEntries(v.report.sites.map((s) => [s.site, s]))
  t.assert.strictEqual(sites.readOneShape.inlineCache, 'MONOMORPHIC')
  t.assert.strictEqual(sites.readTwoShapes.inlineCache, 'POLYMORPHIC')
  t.assert.strictEqual(sites.readSixShapes.inlineCache, 'MEGAMORPHIC')
  t.assert.match(sites.readOneShape.tier, /TurboFan/)
  t.assert.match(sites.readThenNewShape.after.tier, /Ignition/)
  const deleted = v.report.objects.find((o) => o.builtBy.includes('deleted'))
  t.assert.strictEqual(deleted.fastProperties, false)
  t.assert.ok(
    v.deopts.some((d) => d.fn === 'readThenNewShape' && d.reason === 'wrong map'),
    JSON.stringify(v.deopts),
  )
})

test('deoptLines reads --trace-deopt lines, named and anonymous', (t) => {
  const { deoptLines } = micro
  const out = [
    'hello',
    '[bailout (kind: deopt-eager, reason: wrong map): begin. deoptimizing 0x1 <JSFunction readX (sfi = 0x2)>, 0x3 <Code TURBOFAN_JS>, opt id 7',
    '[bailout (kind: deopt-eager, reason: prepare for on stack replacement (OSR)): begin. deoptimizing 0x1 <JSFunction (sfi = 0x2)>, 0x3 <Code MAGLEV>, opt id 2',
  ].join('\n')
  const d = deoptLines(out)
  t.assert.deepStrictEqual(
    d.map(({ fn, kind, reason, code }) => [fn, kind, reason, code]),
    [
      ['readX', 'deopt-eager', 'wrong map', 'TURBOFAN_JS'],
      ['(anonymous)', 'deopt-eager', 'prepare for on stack replacement (OSR)', 'MAGLEV'],
    ],
  )
})

test("predictGain is Amdahl's law; gainCeiling the gain if the parts were free; frameShare reads a profile", (t) => {
  t.assert.strictEqual(nb05.predictGain([{ what: 'x', share: 0.5, gain: 2 }]), 1 / 0.75)
  const two = [
    { what: 'a', share: 0.4, gain: 2 },
    { what: 'b', share: 0.1, gain: 10 },
  ]
  t.assert.ok(Math.abs(nb05.predictGain(two) - 1 / (1 - 0.2 - 0.09)) < 1e-12)
  t.assert.ok(Math.abs(h.gainCeiling(two) - 2) < 1e-12)
  t.assert.strictEqual(nb05.predictGain([]), 1)
  const frame = (id, name, url, children = []) => ({
    id,
    callFrame: { functionName: name, url, lineNumber: 1, columnNumber: 0 },
    children,
  })
  const file = `file://${require('node:path').join(__dirname, '..', '..', 'apps', 'lib', 'shop-work.js')}`
  const flame = cpuFlame({
    nodes: [
      frame(1, '(root)', '', [2, 4]),
      frame(2, 'jsonBody', file, [3]),
      frame(3, 'stringify', ''),
      frame(4, 'handler', 'file:///srv/app.js'),
    ],
    startTime: 0,
    endTime: 4,
    samples: [2, 3, 3, 4],
    timeDeltas: [1, 1, 1, 1],
  })
  t.assert.strictEqual(h.frameShare(flame, { name: 'jsonBody', file: 'lib/shop-work.js' }), 0.75)
  t.assert.strictEqual(h.frameShare(flame, { name: 'sha512Etag' }), 0)
})

test('lieText: the JIT removed the work, or it did not', (t) => {
  const task = (meanNs) => ({ meanNs })
  t.assert.match(micro.lieText(task(20), task(1), 0.8), /20\.0x less.*\*\*The dropped result was never built\*\*/)
  t.assert.match(micro.lieText(task(20), task(15), 0.8), /This time the JIT kept the work/)
})

test('requestLessonText draws its conclusion from the interval, checks the ceiling, and says how the prediction did', (t) => {
  const runs = (values) => ({
    median: [...values].sort()[3],
    min: Math.min(...values),
    max: Math.max(...values),
    runs: values,
  })
  const adv = (ratio) => ({ ratio, decidedOn: 'reqPerSec', reading: 'measured', reqPerSec: ratio, cpuPerRequest: null })
  const small = [
    { what: 'the serialiser', share: 0.01, gain: 2 },
    { what: 'the etag', share: 0.06, gain: 7 },
  ]
  const lesson = (parts, values) =>
    nb05.requestLessonText({ route: 'GET /stock/42', parts, measured: adv(values && runs(values)) })
  const few = lesson(small, [0.98, 1.0, 1.02, 1.04, 1.05, 1.07, 1.09])
  t.assert.match(
    few,
    /^\*\*GET \/stock\/42\*\*: the serialiser 1 % of the busy CPU, 2\.00x faster on its own; the etag 6 %/,
  )
  t.assert.match(few, /Predicted: \*\*1\.06x\*\*\. Measured: By requests per second, <!--wb:comparison kind=same/)
  t.assert.match(
    few,
    /No difference this run could see:\*\* the interval holds 1x\. The optimised code was 7 %.*would give 1\.08x by that share, a gain this run.s interval cannot tell from none/,
  )
  t.assert.match(few, /The prediction falls within the measured interval\./)
  t.assert.doesNotMatch(few, /a few percent|if anything|lies above/)
  // notebook 05 in the run: 1.14x (95 % interval 1.06x-1.21x) under a ceiling of 1.08x
  const over = lesson(small, [1.02, 1.05, 1.07, 1.14, 1.18, 1.21, 1.25])
  t.assert.match(over, /It shows under load:\*\* the optimised code was 7 %/)
  t.assert.match(over, /The measured median lies above 1\.08x, what making both parts free would give by their shares/)
  t.assert.doesNotMatch(over, /at most|No difference/)
  t.assert.match(
    lesson(small, [1.13, 1.14, 1.15, 1.16, 1.17, 1.18, 1.19]),
    /The whole measured interval lies above 1\.08x/,
  )
  const big = [{ what: 'the serialiser', share: 0.5, gain: 2 }]
  const shows = lesson(big, [1.8, 1.85, 1.88, 1.9, 1.92, 1.95, 2])
  t.assert.match(shows, /It shows under load:\*\* the optimised code was 50 %/)
  t.assert.match(shows, /The prediction is 30 % below the measured median/)
  const noisy = lesson(big, [0.9, 0.94, 0.99, 1.35, 1.4, 1.5, 1.63])
  t.assert.match(noisy, /No difference this run could see:\*\* the interval holds 1x/)
  t.assert.doesNotMatch(noisy, /It shows/)
  t.assert.match(lesson(big, [1.38, 1.385, 1.39, 1.4, 1.4, 1.41, 1.42]), /within 10 % of its median/)
  t.assert.match(lesson(big, [1.3, 1.35, 1.4]), /Too few rounds for a verdict:\*\*/)
  t.assert.match(lesson(big, null), /no round in common/)
})

test('opsBars draws bars with the margin of error as whiskers and marks a suspect task grey', (t) => {
  const chart = micro.opsBars(
    [
      { name: 'kept', opsPerSec: 5e7, rme: 2, suspect: false },
      { name: 'dropped', opsPerSec: 2e9, rme: 1, suspect: true },
    ],
    { title: 'lies' },
  )
  t.assert.match(chart.svg, /<svg/)
  t.assert.match(chart.svg, /50M ±2 %/)
  t.assert.match(chart.svg, /2000M ±1 %, suspect/)
  t.assert.strictEqual((chart.svg.match(/fill="#bbbbbb"/g) ?? []).length, 1, 'one grey bar')
  t.assert.match(chart.text, /dropped\s+2000000000\s+1980000000\s+2020000000\s+±1 %, suspect/)
})

test('the shop apps: the schema serialiser writes the very bytes JSON.stringify does, on every answer', (t) => {
  const urls = [
    ...catalogue.map((p) => `/products/${p.id}`),
    ...catalogue.map((p) => `/stock/${p.id}`),
    ...Array.from({ length: 40 }, (_, n) => `/products?page=${n + 1}`),
  ]
  for (const url of urls) {
    const found = route(url)
    t.assert.ok(found, url)
    const body = work.jsonBody(found)
    t.assert.strictEqual(work.schemaBody(found), body, url)
    t.assert.notStrictEqual(work.sha512Etag(body), work.crc32Etag(body))
  }
  for (const url of ['/products/0', '/products/1001', '/stock/x', '/products?page=41', '/', '/products?page=1.5']) {
    t.assert.strictEqual(route(url), null, url)
  }
  t.assert.strictEqual(page(1).items.length, 25)
})
