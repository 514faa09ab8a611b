'use strict'
// notebooks/01-slow-etag-server.ts: the article's targets and doctor's handles, set beside a run; what
// a frame of the flame graph called and what called it; clinic doctor's report, sampling and chart.
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { test } = require('node:test')
const h = require('@workbook/harness')
const here = require(path.join(__dirname, '..', '..', 'notebooks', '01-slow-etag-server.ts'))
const clinic = require(path.join(__dirname, '..', '..', 'notebooks', '01-clinic-doctor.ts'))
const calls = require(path.join(__dirname, '..', '..', 'notebooks', '01-callers.ts'))
const { cpuFlame } = require('./helpers').internal('profiles/flame')

test('changedLines counts the lines a line-for-line edit changed: the fix is one line of util.js', (t) => {
  t.assert.deepStrictEqual(here.changedLines('etag-slow/util.js', 'etag-fixed/util.js'), { changed: 1, of: 61 })
  t.assert.throws(() => here.changedLines('etag-slow/util.js', 'etag-optimised/util.js'), /not a line-for-line edit/)
})

test("handleCounts and handleRows: the article's 103 handles, part by part, beside a run's", (t) => {
  t.assert.deepStrictEqual(here.handleCounts([{ handles: 3 }, { handles: 44 }, { handles: 50 }]), { idle: 3, peak: 50 })
  t.assert.throws(() => here.handleCounts([]), /no samples/)
  t.assert.strictEqual(here.handlesBeforeLoad(), 3)
  const rows = here.handleRows({ idle: 3, peak: 50 }, 100)
  t.assert.deepStrictEqual(
    rows.map((r) => [r["the article's doctor"], r["this run's, at its peak"]]),
    [
      [100, 47],
      [3, 3],
      [103, 50],
    ],
  )
  t.assert.match(rows[1].handles, /^stdout, stderr, the server: open before the load$/)
})

test("handlesText says how many of the load's connections this run's doctor saw, and why fewer; doctorCpuText what pinning allows", (t) => {
  // the clean-clone run of issue 47: 45 to 53 handles over 9 samples under load, 100 connections asked
  const climbing = [3, 3, 45, 46, 47, 48, 49, 50, 51, 52, 53].map((handles) => ({ handles }))
  const fewer = here.handlesText(climbing, 100)
  t.assert.match(fewer, /counted \*\*50 of the 100 connections\*\*/)
  t.assert.match(fewer, /climbed from 45 to 53 over its 9 samples under load, about 1 a sample, .* the other 50 when/)
  t.assert.match(here.handlesText([{ handles: 3 }, { handles: 40 }], 100), /1 sample under load, too few/)
  t.assert.match(here.handlesText([{ handles: 3 }, { handles: 103 }], 100), /every one of them/)
  t.assert.match(here.handlesText([{ handles: 3 }, { handles: 110 }], 100), /more handles than connections/)
  const samples = [{ cpu: 0.45 }, { cpu: 1 }, { cpu: 0.996 }]
  t.assert.match(here.doctorCpuText(samples, '1'), /pinned the server to CPU 1, .* its highest sample read 100 %\.$/)
  t.assert.match(
    here.doctorCpuText([{ cpu: 1.31 }], null),
    /not pinned: doctor's highest sample read 131 %, above one core\.$/,
  )
})

test("targetRows: each of the article's targets, met or not by what the fix reached", (t) => {
  const rows = here.targetRows({ times: 51.3, reqPerSec: 3_900 })
  t.assert.deepStrictEqual(
    rows.map((r) => [r["the article's target"], r['the fix, this run'], r.met]),
    [
      ['10x', '51.3x', 'yes'],
      ['4,000 req/s', '3,900 req/s', 'no'],
      ['2x when the servers cost twice the budget', '51.3x', 'yes'],
    ],
  )
})

test('calleesOf refuses a frame that is not in the flame graph', (t) => {
  const flame = cpuFlame({
    nodes: [{ id: 1, callFrame: { functionName: '(root)', url: '', lineNumber: -1, columnNumber: 0 }, children: [] }],
    startTime: 0,
    endTime: 1,
    samples: [1],
    timeDeltas: [1],
  })
  t.assert.throws(() => calls.calleesOf(flame, { name: 'afterListener' }), {
    code: 'WB_BAD_OPTION',
    message: /^calleesOf: the flame graph has no frame named "afterListener"/,
  })
})

test('callersOf lists what called a frame, level by level, with the share that reached it through each', (t) => {
  const frame = (functionName, url, lineNumber) => ({ functionName, url, lineNumber, columnNumber: 0 })
  const util = path.join(h.repoRoot, 'apps', 'etag-slow', 'util.js')
  const flame = cpuFlame({
    nodes: [
      { id: 1, callFrame: frame('(root)', '', -1), children: [2, 6] },
      { id: 2, callFrame: frame('processTicksAndRejections', 'node:internal/process/task_queues', 70), children: [3] },
      { id: 3, callFrame: frame('emit', 'node:events', 460), children: [4] },
      { id: 4, callFrame: frame('afterListener', util, 16), children: [5] },
      { id: 5, callFrame: frame('update', 'node:internal/crypto/hash', 183), children: [] },
      { id: 6, callFrame: frame('etaggerMiddleware', util, 30), children: [] },
    ],
    startTime: 0,
    endTime: 8000,
    // the listener: 4 own + 2 update, under emit under the tick queue; the middleware: 2
    samples: [4, 4, 4, 4, 5, 5, 6, 6],
    timeDeltas: new Array(8).fill(1000),
  })
  const callers = calls.callersOf(flame, { name: 'afterListener', file: 'etag-slow/util.js' })
  t.assert.deepStrictEqual(
    callers.map((c) => [c.level, c.name, c.file, Math.round(c.throughShare * 8)]),
    [
      [1, 'emit', 'node:events', 6],
      [2, 'processTicksAndRejections', 'node:internal/process/task_queues', 6],
    ],
  )
  t.assert.deepStrictEqual(calls.callersOf(flame, { name: 'etaggerMiddleware' }), [])
  t.assert.throws(() => calls.callersOf(flame, { name: 'seed' }), /callersOf.*no frame named "seed"/)
})

test('a frame reference with a line tells two anonymous functions of one file apart', (t) => {
  const frame = (functionName, url, lineNumber) => ({ functionName, url, lineNumber, columnNumber: 0 })
  const util = path.join(h.repoRoot, 'apps', 'etag-slow', 'util.js')
  const flame = cpuFlame({
    nodes: [
      { id: 1, callFrame: frame('(root)', '', -1), children: [2, 4] },
      { id: 2, callFrame: frame('', util, 32), children: [3] }, // the listener, on line 33
      { id: 3, callFrame: frame('update', 'node:internal/crypto/hash', 183), children: [] },
      { id: 4, callFrame: frame('', util, 43), children: [5] }, // the middleware, on line 44
      { id: 5, callFrame: frame('digest', 'node:internal/crypto/hash', 201), children: [] },
    ],
    startTime: 0,
    endTime: 6000,
    samples: [2, 3, 3, 3, 4, 5],
    timeDeltas: new Array(6).fill(1000),
  })
  const ref = (line) => ({ name: '(anonymous)', file: 'etag-slow/util.js', line })
  t.assert.deepStrictEqual(
    calls.calleesOf(flame, ref(33)).map((c) => c.name),
    ['update'],
  )
  t.assert.deepStrictEqual(
    calls.calleesOf(flame, ref(44)).map((c) => c.name),
    ['digest'],
  )
  t.assert.deepStrictEqual(
    calls
      .calleesOf(flame, { name: '(anonymous)', file: 'etag-slow/util.js' })
      .map((c) => c.name)
      .sort(),
    ['digest', 'update'],
  )
  t.assert.throws(
    () => calls.calleesOf(flame, ref(50)),
    /no frame named "\(anonymous\)" in a file ending "etag-slow\/util.js", starting on line 50/,
  )
})

// clinic doctor, beside notebook 01: reading its report, its sampling, its chart (clinic itself runs in
// tests/integration/clinic.test.js).
const doctorStat = (t, handles, heapUsed = 2e7) => ({
  timestamp: 1000 + t * 1000,
  delay: handles > 4 ? 500 : 0,
  cpu: 0.5,
  memory: { rss: 5e7, heapTotal: 3e7, heapUsed, external: 0 },
  handles,
})
const doctorData = (processStat, traceEvent = []) => ({
  traceEvent,
  processStat,
  analysis: { issues: {}, issueCategory: 'none' },
})

test('readDoctorData reads the clinic-data <script> of a doctor report and refuses a file that is not one', (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-clinic-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const data = doctorData([doctorStat(0, 3)])
  const report = path.join(dir, 'x.clinic-doctor.html')
  fs.writeFileSync(
    report,
    `<html><script type="application/json" id="clinic-data">${JSON.stringify(data)}</script><script>x</script></html>`,
  )
  t.assert.deepStrictEqual(clinic.readDoctorData(report), data)
  const other = path.join(dir, 'x.html')
  fs.writeFileSync(other, '<html><body>not clinic</body></html>')
  t.assert.throws(() => clinic.readDoctorData(other), { code: 'WB_NO_REPORT', message: /no clinic-data <script>/ })
  fs.writeFileSync(other, '<script type="application/json" id="clinic-data">{"traceEvent":')
  t.assert.throws(() => clinic.readDoctorData(other), { code: 'WB_NO_REPORT', message: /is not closed/ })
})

test('doctorSampling counts the samples taken under load and their gaps', (t) => {
  const stats = [
    [0, 4],
    [0.01, 4],
    [0.02, 4],
    [0.5, 104],
    [1.1, 104],
    [2, 103],
    [2.1, 4],
  ]
  const s = clinic.doctorSampling(doctorData(stats.map(([at, handles]) => doctorStat(at, handles))))
  t.assert.strictEqual(s.samples, 7)
  t.assert.deepStrictEqual(
    s.underLoad.map((r) => r.handles),
    [104, 104, 103],
  )
  t.assert.ok(Math.abs(s.loadSpanSeconds - 1.5) < 1e-9 && Math.abs(s.medianGapMs - 750) < 1e-6, JSON.stringify(s))
  t.assert.strictEqual(s.expectedUnderLoad, 151)
  t.assert.deepStrictEqual([s.idleHandles, s.peakHandles, s.intervalMs], [4, 104, 10])
  t.assert.throws(() => clinic.doctorSampling(doctorData([])), /no processStat samples/)
})

test("doctorGcTimes reads V8's garbage collections from doctor's trace events, in seconds from its first sample", (t) => {
  const gc = (name, startTimestamp) => ({ name, args: { startTimestamp } })
  const data = doctorData(
    [doctorStat(0, 3), doctorStat(1, 3)],
    [gc('V8.GCScavenger', 1250), gc('V8.GCFinalizeMC', 1900), gc('V8.Execute', 1300), { name: 'V8.GCIdle' }],
  )
  t.assert.deepStrictEqual(clinic.doctorGcTimes(data), [0.25, 0.9])
})

test("doctorChart draws doctor's four panels, its GCs and its verdict, and refuses empty data", (t) => {
  const data = doctorData(
    [doctorStat(0, 3), doctorStat(1, 50, 2.5e7), doctorStat(2, 3)],
    [
      { name: 'V8.GCScavenger', args: { startTimestamp: 1500 } },
      { name: 'V8.GCScavenger', args: { startTimestamp: 3500 } }, // after the last sample (2 s)
    ],
  )
  const chart = clinic.doctorChart({ data }, { title: 'doctor' })
  for (const panel of ['Event-loop delay', 'CPU \\(% of one core\\)', 'Heap \\(MB\\)', 'Active handles'])
    t.assert.match(chart.svg, new RegExp(panel))
  // the heading counts the ticks drawn, and says how many GCs fell off the time axis
  t.assert.match(
    chart.svg,
    /ticks along the bottom: 1 garbage collections<\/text>.*1 more outside doctor(&#x27;|')s samples are not drawn/,
  )
  t.assert.match(
    chart.text,
    /\nHeap \(MB\); ticks along the bottom: 1 garbage collections\n1 more outside doctor's samples/,
  )
  const rules = chart.svg.match(/<g aria-label="rule"[^>]*>(?:<line [^>]*><\/line>)*<\/g>/g)
  t.assert.deepStrictEqual(
    rules?.map((g) => g.match(/<line /g).length),
    [1],
  )
  // one time axis: every panel's x axis runs from 0 at the same left edge to 2 at the same right edge
  const axes = [...chart.svg.matchAll(/aria-label="x-axis tick"[^>]*>((?:<path [^>]*><\/path>)+)/g)].map((m) =>
    [...m[1].matchAll(/translate\(([\d.]+),/g)].map((x) => Number(x[1])),
  )
  t.assert.deepStrictEqual(
    axes.map((xs) => [xs[0], xs.at(-1)]),
    new Array(4).fill([60, 640 - 110]),
  )
  t.assert.match(
    chart.svg,
    /clinic doctor&#x27;s verdict: "none"|clinic doctor's verdict: &quot;none&quot;|verdict: "none"/,
  )
  t.assert.match(chart.text, /^doctor\n\| t s \| delay ms \| cpu % \| heap used MB \| heap total MB \| handles \|\n/)
  t.assert.match(chart.text, /\n\| 1 \| 500 \| 50 \| 23\.8 \| 28\.6 \| 50 \|\n/)
  t.assert.strictEqual(clinic.doctorChart({ data }, { title: 'd', subtitle: 'mine' }).svg.includes('verdict'), false)
  t.assert.throws(() => clinic.doctorChart({ data: doctorData([]) }, { title: 'x' }), /no processStat samples/)
})
