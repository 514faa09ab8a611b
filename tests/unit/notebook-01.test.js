'use strict'
// notebooks/01-slow-etag-server.ts: the article's targets and doctor's handles, set beside a run; what
// a frame of the flame graph called and what called it.
const path = require('node:path')
const { test } = require('node:test')
const h = require('@workbook/harness')
const here = require(path.join(__dirname, '..', '..', 'notebooks', '01-slow-etag-server.ts'))
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
  t.assert.throws(() => here.calleesOf(flame, { name: 'afterListener' }), {
    code: 'WB_BAD_OPTION',
    message: /^calleesOf: the flame graph has no frame named "afterListener"/,
  })
})

test('callersOf lists what called a frame, level by level, with the share that reached it through each', (t) => {
  const frame = (functionName, url, lineNumber) => ({ functionName, url, lineNumber, columnNumber: 0 })
  const util = path.join(h.appsDir, 'etag-slow', 'util.js')
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
  const callers = here.callersOf(flame, { name: 'afterListener', file: 'etag-slow/util.js' })
  t.assert.deepStrictEqual(
    callers.map((c) => [c.level, c.name, c.file, Math.round(c.throughShare * 8)]),
    [
      [1, 'emit', 'node:events', 6],
      [2, 'processTicksAndRejections', 'node:internal/process/task_queues', 6],
    ],
  )
  t.assert.deepStrictEqual(here.callersOf(flame, { name: 'etaggerMiddleware' }), [])
  t.assert.throws(() => here.callersOf(flame, { name: 'seed' }), /callersOf.*no frame named "seed"/)
})

test('a frame reference with a line tells two anonymous functions of one file apart', (t) => {
  const frame = (functionName, url, lineNumber) => ({ functionName, url, lineNumber, columnNumber: 0 })
  const util = path.join(h.appsDir, 'etag-slow', 'util.js')
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
    here.calleesOf(flame, ref(33)).map((c) => c.name),
    ['update'],
  )
  t.assert.deepStrictEqual(
    here.calleesOf(flame, ref(44)).map((c) => c.name),
    ['digest'],
  )
  t.assert.deepStrictEqual(
    here
      .calleesOf(flame, { name: '(anonymous)', file: 'etag-slow/util.js' })
      .map((c) => c.name)
      .sort(),
    ['digest', 'update'],
  )
  t.assert.throws(
    () => here.calleesOf(flame, ref(50)),
    /no frame named "\(anonymous\)" in a file ending "etag-slow\/util.js", starting on line 50/,
  )
})
