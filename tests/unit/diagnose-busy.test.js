'use strict'
// Where a loop's busy time goes (tools/src/diagnose/busy.ts), on a CPU profile made up here: each
// sample counted once, in the first kind that fits it, and the regular expression named with its
// pattern and the app's frame that ran it.
const { test } = require('node:test')
const fs = require('node:fs')
const path = require('node:path')
const { pathToFileURL } = require('node:url')
const { madeUpProfile, tool } = require('./helpers')
const { busyTime, dominant, handoff } = tool('diagnose/busy')
const { BUSY_KINDS } = tool('diagnose/kinds')
const { packageOf } = tool('diagnose/callers')

const root = path.join(__dirname, '..', '..')
const app = `file://${path.join(root, 'srv.js')}`
const dep = `file://${path.join(root, 'node_modules', 'ajv', 'lib', 'core.js')}`
const router = `file://${path.join(root, 'node_modules', 'express', 'lib', 'router', 'index.js')}`
const etag = `file://${path.join(root, 'node_modules', 'etag', 'index.js')}`
const cf = (functionName, url = '', lineNumber = 0) => ({ functionName, url, lineNumber, columnNumber: 0 })
// (root) -> (idle) | (garbage collector) | handler (app) -> { RegExp, readFileSync -> read, pbkdf2Sync -> native,
// JSON.stringify-ish self time, compile (dependency) } | emit (node:events) -> { writev (native),
// handle (express: the framework) -> { etag (the framework's dependency), route (app) -> compile (ajv) } }
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
  { id: 11, callFrame: cf('emit', 'node:events', 500), children: [12, 13] },
  { id: 12, callFrame: cf('writev') },
  { id: 13, callFrame: cf('handle', router, 150), children: [14, 15] },
  { id: 14, callFrame: cf('etag', etag, 60) },
  { id: 15, callFrame: cf('route', app, 30), children: [16] },
  { id: 16, callFrame: cf('compile', dep, 100) },
]
// samples by node id: 20 idle, 5 GC, 10 regex, 15 under readFileSync, 10 under pbkdf2Sync, 20 the app's own, 10 ajv, 10 Node's,
// 5 express's (the framework's), 5 etag's under it (a package the framework called: its own), 5 ajv's under the app's
// route under express (a dependency's)
const profile = madeUpProfile(nodes, [
  [2, 20],
  [3, 5],
  [5, 10],
  [7, 15],
  [9, 10],
  [4, 20],
  [10, 10],
  [11, 5],
  [12, 5],
  [13, 5],
  [14, 5],
  [16, 5],
])

test('busyTime counts each busy sample once, in the first kind that fits it, idle left out', (t) => {
  const b = busyTime(profile)
  t.assert.strictEqual(b.busySamples, 95)
  // express's own code is the framework's handling; etag, which it calls, and ajv, which the app's route calls, are
  // packages' own work (what a framework's reference spends in etag is set against it later: yardstick.ts)
  const expected = { gc: 5, regex: 10, syncIo: 15, native: 10, app: 20, dependency: 20, framework: 5, node: 10 }
  for (const k of BUSY_KINDS) t.assert.strictEqual(b.shares[k], expected[k] / 95, k)
  t.assert.ok(Math.abs(BUSY_KINDS.reduce((a, k) => a + b.shares[k], 0) - 1) < 1e-12)
  t.assert.deepStrictEqual(b.packages, { ajv: 15 / 95, express: 5 / 95, etag: 5 / 95 })
})

test("busyTime names the regular expression that ran longest from V8's own frame, with the app frame that ran it", (t) => {
  const { regex } = busyTime(profile)
  t.assert.deepStrictEqual(
    {
      pattern: regex.pattern,
      from: regex.from,
      share: regex.share,
      caller: `${regex.caller.name} ${regex.caller.file}:${regex.caller.line}`,
    },
    { pattern: '^([a-z0-9]+)+$', from: 'frame', share: 10 / 95, caller: 'handler srv.js:10' },
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

test('regexesOnLine finds every pattern a line may run: literals there, or those a name there is bound to', (t) => {
  const { regexesOnLine } = tool('diagnose/regex')
  const src = [
    'const username = /^([a-z0-9]+)+$/',
    '  const valid = username.test(input)',
    'x.replace(/a+b/g, "")',
    'const r = new RegExp("^(a|aa)+$")',
    'if (r.test(s)) y()',
    's.split(",")',
    'const n = a / b / c; s.split(",")',
    'const parts = s.split(r)',
    'if (/^x/.test(s) || /y$/.test(s)) z()',
    'let p = /one/',
    'if (cond) p = /two/',
    'let q = /first/',
    'function f() { let q = /second/; return q.test(s) }',
  ]
  t.assert.deepStrictEqual(
    src.map((_, i) => regexesOnLine(src, i + 1)),
    [
      [],
      ['^([a-z0-9]+)+$'],
      ['a+b'],
      [],
      ['^(a|aa)+$'],
      [],
      [],
      ['^(a|aa)+$'],
      ['^x', 'y$'],
      [],
      [],
      [],
      ['second', 'first'],
    ],
  )
  // a minified line (a bundled package's module on one line) holds all of its code: not read for patterns
  const minified = `if(/^x/.test(s))y();${'a=b+c;'.repeat(60)}`
  t.assert.deepStrictEqual(regexesOnLine([minified], 1), [])
  t.assert.deepStrictEqual(regexesOnLine([minified.slice(0, 120)], 1), ['^x'])
})

test("a regular expression in a package's code is not the app's to rewrite: the advice is to call the package less", (t) => {
  const { adviceFor, ADVICE } = tool('diagnose/places')
  const withRegexBy = (caller) => ({ busy: { regex: { caller } } })
  const marked = { name: 'emStrong', file: 'node_modules/marked/lib/marked.esm.js', line: 54, category: 'dependency' }
  t.assert.match(
    adviceFor(withRegexBy(marked), 'regex'),
    /the expression is marked's, run by its emStrong: call it less/,
  )
  const app = { name: 'validate', file: 'srv.js', line: 3, category: 'user' }
  t.assert.strictEqual(adviceFor(withRegexBy(app), 'regex'), ADVICE.regex)
  t.assert.strictEqual(adviceFor(withRegexBy(marked), 'dependency'), ADVICE.dependency)
})

test('a long source line is printed cut, with its length', (t) => {
  const { lineText } = tool('diagnose/places')
  t.assert.strictEqual(lineText('res.end(x)'), 'res.end(x)')
  const long = 'x'.repeat(5000)
  t.assert.strictEqual(lineText(long), `${'x'.repeat(100)} … (a line of 5000 characters)`)
})

test("busyTime counts the self time of the lines that run a regular expression as the expression's, line by line", (t) => {
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
  t.assert.deepStrictEqual(
    { ...b.regex, caller: `${b.regex.caller.name} ${b.regex.caller.file}:${b.regex.caller.line}` },
    {
      pattern: '^([a-z0-9]+)+$',
      candidates: ['^([a-z0-9]+)+$'],
      share: 0.75,
      from: 'line',
      caller: 'handler srv.js:10',
      line: { file: 'srv.js', line: 10, text: 'if (username.test(s)) ok()' },
    },
  )
  // a line that may run two: the line is named, the pattern is not
  const two = [...source.slice(0, 9), 'if (username.test(s) || /^admin/.test(s)) ok()', 'res.end(s)']
  const both = busyTime({ ...profile, nodes: ticked, samples: Array(20).fill(4) }, () => two).regex
  t.assert.deepStrictEqual([both.pattern, both.candidates, both.line.line], [null, ['^admin', '^([a-z0-9]+)+$'], 10])
})

// A CPU profile recorded from tests/fixtures/diagnose/redos-beside-harmless.js (scripts/calibrate-diagnosis.js's
// server, profiled by the diagnosis): its line 13 runs a harmless /[^A-Za-z0-9]/ with replace (52 samples),
// its line 15 the catastrophic /^([a-z0-9]+)+$/ with test (2854). V8 lists line 13's ticks first; the
// diagnosis before this test named the first expression it met on a line with ticks: the harmless one.
test('a recorded profile of a file with two regular expressions: the one that ran hottest is named, with its line', (t) => {
  const file = path.join(root, 'tests', 'fixtures', 'diagnose', 'profiles', 'redos-beside-harmless.cpuprofile.json')
  const recorded = JSON.parse(fs.readFileSync(file, 'utf8').replaceAll('file://REPO/', `${pathToFileURL(root).href}/`))
  const { regex, shares } = busyTime(recorded)
  t.assert.ok(shares.regex > 0.9, String(shares.regex))
  t.assert.strictEqual(regex.pattern, '^([a-z0-9]+)+$')
  t.assert.deepStrictEqual(
    [regex.from, regex.line?.file, regex.line?.line],
    ['line', 'tests/fixtures/diagnose/redos-beside-harmless.js', 15],
  )
})

test('handoff names the call of Node that handed work to the pool, and the app frame that made it', (t) => {
  const cf2 = (name, url, line) => cf(name, url, line)
  const pool = {
    nodes: [
      { id: 1, callFrame: cf2('(root)'), children: [2, 3, 6] },
      { id: 2, callFrame: cf2('(idle)') },
      { id: 3, callFrame: cf2('work', app, 20), children: [4] },
      { id: 4, callFrame: cf2('pbkdf2', 'node:internal/crypto/pbkdf2', 30), children: [5] },
      { id: 5, callFrame: cf2('check', 'node:internal/crypto/pbkdf2', 60) },
      { id: 6, callFrame: cf2('readFileSync', 'node:fs', 440) },
    ],
    samples: [2, 2, 4, 5, 5, 6, 6, 6, 6, 6],
  }
  const h = handoff(pool)
  t.assert.deepStrictEqual(
    [h.to, h.call.name, h.call.file, h.caller.name, h.samples],
    ['pool', 'pbkdf2', 'node:internal/crypto/pbkdf2', 'work', 3],
  )
  t.assert.strictEqual(handoff({ ...pool, samples: [2, 6] }), null) // a *Sync call is the main thread's own
})

test('withPauses takes garbage collection from the pauses the process reported, and scales the rest', (t) => {
  const { withPauses } = tool('diagnose/busy')
  const s = withPauses(
    { gc: 0.2, regex: 0, syncIo: 0, native: 0, app: 0.6, dependency: 0, framework: 0, node: 0.2 },
    0.5,
  )
  t.assert.deepStrictEqual(Object.fromEntries(Object.entries(s).map(([k, v]) => [k, Math.round(v * 1000) / 1000])), {
    gc: 0.5,
    regex: 0,
    syncIo: 0,
    native: 0,
    app: 0.375,
    dependency: 0,
    framework: 0,
    node: 0.125,
  })
  t.assert.strictEqual(withPauses({ ...s, gc: 0 }, Number.NaN).gc, 0)
})

test("packageOf names the package a frame's file belongs to: the folder after the last node_modules", (t) => {
  t.assert.strictEqual(packageOf('node_modules/express/lib/router/index.js'), 'express')
  t.assert.strictEqual(packageOf('../shop/node_modules/@hono/node-server/dist/index.js'), '@hono/node-server')
  t.assert.strictEqual(packageOf('node_modules/.pnpm/etag@1.8.1/node_modules/etag/index.js'), 'etag')
  t.assert.strictEqual(packageOf('C:\\shop\\node_modules\\koa\\lib\\application.js'), 'koa')
  t.assert.strictEqual(packageOf('apps/server.js'), null)
})
