'use strict'
// Where a loop's busy time goes (harness/src/diagnose/busy.ts), on a CPU profile made up here: each
// sample counted once, in the first kind that fits it, and the regular expression named with its
// pattern and the app's frame that ran it.
const { test } = require('node:test')
const path = require('node:path')
const { internal } = require('./helpers')
const { busyTime, dominant, BUSY_KINDS } = internal('diagnose/busy')

const root = path.join(__dirname, '..', '..')
const app = `file://${path.join(root, 'srv.js')}`
const dep = `file://${path.join(root, 'node_modules', 'ajv', 'lib', 'core.js')}`
const cf = (functionName, url = '', lineNumber = 0) => ({ functionName, url, lineNumber, columnNumber: 0 })
// (root) -> (idle) | (garbage collector) | handler (app) -> { RegExp, readFileSync -> read, pbkdf2Sync -> native,
// JSON.stringify-ish self time, compile (dependency) } | emit (node:events) -> writev (native)
const nodes = [
  { id: 1, callFrame: cf('(root)'), children: [2, 3, 4, 11] },
  { id: 2, callFrame: cf('(idle)') },
  { id: 3, callFrame: cf('(garbage collector)') },
  { id: 4, callFrame: cf('handler', app, 9), children: [5, 6, 8, 10] },
  { id: 5, callFrame: cf('RegExp: ^([a-z0-9]+)+$') },
  { id: 6, callFrame: cf('readFileSync', 'node:fs', 440), children: [7] },
  { id: 7, callFrame: cf('read') },
  { id: 8, callFrame: cf('pbkdf2Sync', 'node:internal/crypto/pbkdf2', 60), children: [9] },
  { id: 9, callFrame: cf('pbkdf2') },
  { id: 10, callFrame: cf('compile', dep, 100) },
  { id: 11, callFrame: cf('emit', 'node:events', 500), children: [12] },
  { id: 12, callFrame: cf('writev') },
]
// samples by node id: 20 idle, 5 GC, 10 regex, 15 under readFileSync, 10 under pbkdf2Sync, 20 the app's own, 10 ajv, 10 Node's
const samples = [
  ...Array(20).fill(2),
  ...Array(5).fill(3),
  ...Array(10).fill(5),
  ...Array(15).fill(7),
  ...Array(10).fill(9),
  ...Array(20).fill(4),
  ...Array(10).fill(10),
  ...Array(5).fill(11),
  ...Array(5).fill(12),
]
const profile = { nodes, samples, timeDeltas: samples.map(() => 1000), startTime: 0, endTime: samples.length * 1000 }

test('busyTime counts each busy sample once, in the first kind that fits it, idle left out', (t) => {
  const b = busyTime(profile)
  t.assert.strictEqual(b.busySamples, 80)
  const expected = { gc: 5, regex: 10, syncIo: 15, native: 10, app: 20, dependency: 10, node: 10 }
  for (const k of BUSY_KINDS) t.assert.strictEqual(b.shares[k], expected[k] / 80, k)
  t.assert.strictEqual(
    BUSY_KINDS.reduce((a, k) => a + b.shares[k], 0),
    1,
  )
})

test('busyTime names the regular expression that ran longest, with the app frame that ran it', (t) => {
  const { regex } = busyTime(profile)
  t.assert.deepStrictEqual(
    {
      pattern: regex.pattern,
      share: regex.share,
      caller: `${regex.caller.name} ${regex.caller.file}:${regex.caller.line}`,
    },
    { pattern: '^([a-z0-9]+)+$', share: 10 / 80, caller: 'handler srv.js:10' },
  )
  t.assert.strictEqual(busyTime({ ...profile, samples: [2, 4, 11] }).regex, null)
})

test('a profile that was idle throughout has no busy time, and no share of any kind', (t) => {
  const b = busyTime({ ...profile, samples: [2, 2, 2] })
  t.assert.strictEqual(b.busySamples, 0)
  t.assert.ok(BUSY_KINDS.every((k) => b.shares[k] === 0))
})

test('dominant picks the largest share among the kinds given, ties to the first', (t) => {
  const shares = { gc: 0.4, regex: 0, syncIo: 0.3, native: 0, app: 0.3, dependency: 0, node: 0 }
  t.assert.strictEqual(dominant(shares), 'gc')
  t.assert.strictEqual(
    dominant(
      shares,
      BUSY_KINDS.filter((k) => k !== 'gc'),
    ),
    'syncIo',
  )
})

test('regexOnLine finds the pattern a line runs: a literal there, or the one a name there is bound to', (t) => {
  const { regexOnLine } = internal('diagnose/busy')
  const src = [
    'const username = /^([a-z0-9]+)+$/',
    '  const valid = username.test(input)',
    'x.replace(/a+b/g, "")',
    'const r = new RegExp("^(a|aa)+$")',
    'if (r.test(s)) y()',
    's.split(",")',
    'const n = a / b / c; s.split(",")',
    'const parts = s.split(r)',
  ]
  t.assert.deepStrictEqual(
    src.map((_, i) => regexOnLine(src, i + 1)),
    [null, '^([a-z0-9]+)+$', 'a+b', null, '^(a|aa)+$', null, null, '^(a|aa)+$'],
  )
})

test("busyTime counts the self time of the lines that run a regular expression as the expression's", (t) => {
  // the handler's own 20 samples: 15 on line 10, which runs the expression, 5 on line 11
  const ticked = nodes.map((n) =>
    n.id === 4
      ? {
          ...n,
          positionTicks: [
            { line: 10, ticks: 15 },
            { line: 11, ticks: 5 },
          ],
        }
      : n,
  )
  const source = ['const username = /^([a-z0-9]+)+$/', ...Array(8).fill(''), 'if (username.test(s)) ok()', 'res.end(s)']
  const b = busyTime({ ...profile, nodes: ticked, samples: Array(20).fill(4) }, () => source)
  t.assert.deepStrictEqual([b.shares.regex, b.shares.app], [0.75, 0.25])
  t.assert.strictEqual(b.regex.pattern, '^([a-z0-9]+)+$')
  t.assert.strictEqual(`${b.regex.caller.name} ${b.regex.caller.file}:${b.regex.caller.line}`, 'handler srv.js:10')
})

test('withPauses takes garbage collection from the pauses the process reported, and scales the rest', (t) => {
  const { withPauses } = internal('diagnose/busy')
  const s = withPauses({ gc: 0.2, regex: 0, syncIo: 0, native: 0, app: 0.6, dependency: 0, node: 0.2 }, 0.5)
  t.assert.deepStrictEqual(Object.fromEntries(Object.entries(s).map(([k, v]) => [k, Math.round(v * 1000) / 1000])), {
    gc: 0.5,
    regex: 0,
    syncIo: 0,
    native: 0,
    app: 0.375,
    dependency: 0,
    node: 0.125,
  })
  t.assert.strictEqual(withPauses({ ...s, gc: 0 }, Number.NaN).gc, 0)
})
