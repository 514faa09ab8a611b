'use strict'
// The exercise check's own contract, on small fixtures and short loads: specs, messages, the
// p99-with-background shape of exercise 02, and that nothing is left running. The measured checks
// of the real exercises (both ways, and the bad submissions) are in tests/exercises/.
const { test } = require('node:test')
const path = require('node:path')
const fs = require('node:fs')
const os = require('node:os')
const h = require('@workbook/harness')
const { running } = require('@workbook/harness/internal')
const ex = require('@workbook/harness/exercises')
const { serveHere, exerciseSpec: spec } = require('./helpers')
const { compareResponses, jsonShape } = require('./helpers').internal('exercises/answers')
const { freshPath } = require('./helpers').internal('load/timing')
const { loadSpec } = require('./helpers').internal('exercises/spec')

const SHORT = { rounds: 2, duration: 2, warmup: 0 }

test('loadSpec names what a spec lacks, and where it looked for one', (t) => {
  t.assert.throws(
    () => loadSpec({ exercise: 'x', app: { entry: 'a.js' } }),
    /check spec of x lacks baseline, requests, load, threshold/,
  )
  t.assert.throws(() => loadSpec('no-such-exercise'), /no check spec at .*exercises\/no-such-exercise\/check\.json/)
  const real = loadSpec('04-hot-path')
  t.assert.strictEqual(real.threshold, 3)
  t.assert.strictEqual(real.dir, path.join(h.repoRoot, 'exercises', '04-hot-path'))
})

test('loadSpec refuses a background without exactly one pace, a latency metric without a rate, an unknown metric', (t) => {
  const base = {
    exercise: 'x',
    app: { entry: 'a.js' },
    baseline: { entry: 'b.js' },
    requests: [],
    load: { path: '/', rate: 100 },
    metric: 'p99',
    threshold: 2,
  }
  t.assert.throws(
    () => loadSpec({ ...base, background: { path: '/e' } }),
    /check spec of x: background needs exactly one of rate .* and busyShare/,
  )
  t.assert.throws(
    () => loadSpec({ ...base, background: { path: '/e', rate: 4, busyShare: 0.5 } }),
    /exactly one of rate/,
  )
  t.assert.throws(
    () => loadSpec({ ...base, background: { path: '/e', busyShare: 1.5 } }),
    /busyShare must be between 0 and 1/,
  )
  t.assert.throws(() => loadSpec({ ...base, load: { path: '/' } }), /a latency metric \(p99\) needs load\.rate/)
  t.assert.throws(
    () => loadSpec({ ...base, metric: 'p95' }),
    /metric must be reqPerSec, p50, p99 or heapGrowth, not "p95"/,
  )
  t.assert.strictEqual(loadSpec({ ...base, background: { path: '/e', busyShare: 0.5 } }).background.busyShare, 0.5)
  t.assert.strictEqual(loadSpec('02-unblock').background.busyShare, 0.5)
})

test('a bad WORKBOOK_PROFILE is a failed check with the reason, not a throw', async (t) => {
  const saved = process.env.WORKBOOK_PROFILE
  process.env.WORKBOOK_PROFILE = 'fastest'
  t.after(() => {
    if (saved === undefined) delete process.env.WORKBOOK_PROFILE
    else process.env.WORKBOOK_PROFILE = saved
  })
  const r = await ex.checkExercise(spec())
  t.assert.strictEqual(r.pass, false)
  t.assert.strictEqual(r.details.stage, 'spec')
  t.assert.match(r.message, /WORKBOOK_PROFILE must be "quick" or "full", got "fastest"/)
})

test('freshPath gives every {name} a name of letters never given before', (t) => {
  const names = Array.from({ length: 300 }, () => freshPath('/report?user={name}').split('=')[1])
  t.assert.strictEqual(new Set(names).size, names.length)
  for (const n of names) t.assert.match(n, /^[a-z]{1,20}$/)
  t.assert.strictEqual(freshPath('/expensive'), '/expensive')
})

test('exerciseApps gives the starting point and the learner app as startApp takes them', (t) => {
  const apps = ex.exerciseApps('04-hot-path', { submissionDir: path.join(h.repoRoot, 'solutions', '04-hot-path') })
  t.assert.strictEqual(apps.start.entry, path.join(h.repoRoot, 'exercises', '04-hot-path', 'start', 'server.js'))
  t.assert.strictEqual(apps.yours.entry, path.join(h.repoRoot, 'solutions', '04-hot-path', 'app', 'server.js'))
  t.assert.strictEqual(apps.yours.probe, '/products?tag=red')
})

test('a missing app file fails at once with where it looked', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-check-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const r = await ex.checkExercise(spec(), { ...SHORT, submissionDir: dir })
  t.assert.strictEqual(r.pass, false)
  t.assert.strictEqual(r.details.stage, 'start')
  t.assert.match(r.message, /There is no unblock-done\.js in /)
})

// The fixtures differ without bound: unblock-done answers /late at once, answers-late after 2.5 s, longer than a 1 s round.

test('an app that crashes on its first request is told apart from one that answers 500', async (t) => {
  const crash = await ex.checkExercise(spec({ app: { entry: 'unblock-crash.js', probe: '/cheap' } }), SHORT)
  t.assert.strictEqual(crash.details.stage, 'start')
  t.assert.match(
    crash.message,
    /^Your app crashed on its first request, GET \/cheap: ReferenceError: CHEEP is not defined \(unblock-crash\.js:\d+\)\.$/,
  )
  t.assert.match(crash.details.stderr, /ReferenceError: CHEEP is not defined/)
  const failing = await ex.checkExercise(spec({ app: { entry: 'unblock-500.js', probe: '/cheap' } }), SHORT)
  t.assert.strictEqual(failing.details.stage, 'start')
  t.assert.match(
    failing.message,
    /^Your app started but answered 500 to GET \/cheap: ReferenceError: CHEEP is not defined( \(.+\))?\.$/,
  )
  t.assert.doesNotMatch(failing.message, /crashed/)
  t.assert.deepStrictEqual(running(), [])
})

test('match and fresh: a JSON value must fit its pattern and differ from the previous answer to the same path', async (t) => {
  let n = 0
  const fresh = await serveHere(t, (req, res) => res.end(JSON.stringify({ data: (n++).toString(16).padStart(4, '0') })))
  const cached = await serveHere(t, (req, res) => res.end(JSON.stringify({ data: 'abcd' })))
  const upper = await serveHere(t, (req, res) => res.end(JSON.stringify({ data: 'ABCD' })))
  const requests = [
    { path: '/seed', match: { data: '^[0-9a-f]{4}$' } },
    { path: '/seed', match: { data: '^[0-9a-f]{4}$' }, fresh: ['data'] },
  ]
  const ok = await compareResponses(fresh, fresh, requests, ['json-shape'])
  t.assert.deepStrictEqual(
    ok.map((r) => r.ok),
    [true, true],
  )
  const again = await compareResponses(fresh, cached, requests, ['json-shape'])
  t.assert.deepStrictEqual(
    again.map((r) => r.ok),
    [true, false],
  )
  t.assert.match(
    again[1].problem,
    /"data" is the same as in the previous answer to \/seed: each answer must be made fresh/,
  )
  const wrong = await compareResponses(fresh, upper, requests, ['json-shape'])
  t.assert.match(wrong[0].problem, /"data" is "ABCD", expected a string matching \/\^\[0-9a-f\]\{4\}\$\//)
})

test('a different answer fails before any load, naming the request and the difference', async (t) => {
  const r = await ex.checkExercise(spec({ app: { entry: 'not-found.js' } }), SHORT)
  t.assert.strictEqual(r.details.stage, 'responses')
  t.assert.match(
    r.message,
    /2 of 2 answers differ from the starting point's; first GET \/cheap: status 404, expected 200/,
  )
  t.assert.deepStrictEqual(r.details.baseline, [])
})

// The fixtures differ 50x or more: /expensive blocks unblock-start's loop for 300 ms, half of the time, so
// its /cheap p99 is about 300 ms; unblock-done waits 300 ms without blocking, and its /cheap p99 is a few ms.

test('printCheck prints the verdict, the hints and the stderr of a failure', async (t) => {
  const lines = []
  t.mock.method(process.stdout, 'write', (s) => {
    lines.push(String(s))
    return true
  })
  ex.printCheck({
    exercise: 'x',
    pass: false,
    ratio: null,
    message: 'Your app exited.',
    hints: ['Run it yourself.'],
    details: { stderr: 'SyntaxError: nope' },
  })
  t.mock.restoreAll()
  const text = lines.join('')
  t.assert.match(text, /FAIL: exercise x/)
  t.assert.match(text, /\* Run it yourself\./)
  t.assert.match(text, /SyntaxError: nope/)
})

test('jsonShape keeps the keys, their order, the types and the string lengths, not the values', (t) => {
  const a = jsonShape('{"data":"abcd","url":"/seed/v1","ts":1,"n":null,"list":[1,"x"]}')
  t.assert.strictEqual(a, jsonShape('{"data":"wxyz","url":"/seed/v2","ts":2,"n":null,"list":[3,"y"]}'))
  t.assert.strictEqual(
    a,
    '{"data":"string(4)","url":"string(8)","ts":"number","n":"null","list":["number","string(1)"]}',
  )
  t.assert.notStrictEqual(
    a,
    jsonShape('{"url":"/seed/v1","data":"abcd","ts":1,"n":null,"list":[1,"x"]}'),
    'key order counts',
  )
  t.assert.notStrictEqual(
    a,
    jsonShape('{"data":"abcde","url":"/seed/v1","ts":1,"n":null,"list":[1,"x"]}'),
    'string length counts',
  )
  t.assert.notStrictEqual(
    a,
    jsonShape('{"data":"abcd","url":"/seed/v1","ts":"1","n":null,"list":[1,"x"]}'),
    'type counts',
  )
  t.assert.strictEqual(jsonShape('not json'), 'not JSON')
})
