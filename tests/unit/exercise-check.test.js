'use strict'
// The exercise check's own contract, on small fixtures and short loads: specs, messages, the
// p99-with-background shape of exercise 02, and that nothing is left running. The measured checks
// of the real exercises (both ways, and the bad submissions) are in tests/exercises/.
const { test } = require('node:test')
const path = require('node:path')
const fs = require('node:fs')
const os = require('node:os')
const h = require('@workbook/harness')

const SHORT = { rounds: 2, duration: 2, warmup: 0 }
const fixtures = path.join(__dirname, '..', 'fixtures', 'apps')

function spec (overrides = {}) {
  return {
    exercise: 'unblock-test',
    app: { entry: 'unblock-done.js', probe: '/cheap' },
    baseline: { entry: 'unblock-start.js' },
    requests: [{ path: '/cheap' }, { path: '/expensive' }],
    compare: ['status', 'body'],
    load: { path: '/cheap', connections: 5, rate: 200 },
    background: { path: '/expensive', rate: 10, connections: 2 },
    metric: 'p99',
    threshold: 3,
    dir: fixtures,
    ...overrides,
  }
}

test('loadSpec names what a spec lacks, and where it looked for one', (t) => {
  t.assert.throws(() => h.loadSpec({ exercise: 'x', app: { entry: 'a.js' } }), /check spec of x lacks baseline, requests, load, threshold/)
  t.assert.throws(() => h.loadSpec('no-such-exercise'), /no check spec at .*exercises\/no-such-exercise\/check\.json/)
  const real = h.loadSpec('04-hot-path')
  t.assert.strictEqual(real.threshold, 3)
  t.assert.strictEqual(real.dir, path.join(h.repoRoot, 'exercises', '04-hot-path'))
})

test('exerciseApps gives the starting point and the learner app as startApp takes them', (t) => {
  const apps = h.exerciseApps('04-hot-path', { submissionDir: path.join(h.repoRoot, 'solutions', '04-hot-path') })
  t.assert.strictEqual(apps.start.entry, path.join(h.repoRoot, 'exercises', '04-hot-path', 'start', 'server.js'))
  t.assert.strictEqual(apps.yours.entry, path.join(h.repoRoot, 'solutions', '04-hot-path', 'app', 'server.js'))
  t.assert.strictEqual(apps.yours.probe, '/products?tag=red')
})

test('a missing app file fails at once with where it looked', async (t) => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wb-check-'))
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }))
  const r = await h.checkExercise(spec(), { ...SHORT, submissionDir: dir })
  t.assert.strictEqual(r.pass, false)
  t.assert.strictEqual(r.details.stage, 'start')
  t.assert.match(r.message, /There is no unblock-done\.js in /)
})

test('an app that never listens fails within its start timeout, with the contract as a hint', async (t) => {
  const started = Date.now()
  const r = await h.checkExercise(spec({ app: { entry: 'never-listens.js' }, startTimeoutMs: 1500 }), SHORT)
  t.assert.strictEqual(r.pass, false)
  t.assert.match(r.message, /Your app never reported listening \(waited 1500 ms\)/)
  t.assert.match(r.hints.join(' '), /listening line/)
  t.assert.ok(Date.now() - started < 10_000)
  t.assert.deepStrictEqual(h.running(), [])
})

test('a different answer fails before any load, naming the request and the difference', async (t) => {
  const r = await h.checkExercise(spec({ app: { entry: 'not-found.js' } }), SHORT)
  t.assert.strictEqual(r.details.stage, 'responses')
  t.assert.match(r.message, /2 of 2 answers differ from the starting point's; first GET \/cheap: status 404, expected 200/)
  t.assert.deepStrictEqual(r.details.baseline, [])
})

test('a p99 check with background load (the shape of exercise 02) measures both apps and passes the unblocked one', async (t) => {
  const r = await h.checkExercise(spec(), SHORT)
  t.assert.strictEqual(r.details.stage, 'ratio', r.message)
  t.assert.strictEqual(r.details.baseline.length, 2)
  t.assert.strictEqual(r.details.submission.length, 2)
  t.assert.ok(r.pass, r.message)
  t.assert.match(r.message, /had a p99 latency of .* ms against the starting point's .* ms/)
  t.assert.deepStrictEqual(h.running(), [])
})

test('printCheck prints the verdict, the hints and the stderr of a failure', async (t) => {
  const lines = []
  t.mock.method(process.stdout, 'write', (s) => { lines.push(String(s)); return true })
  h.printCheck({ exercise: 'x', pass: false, ratio: null, message: 'Your app exited.', hints: ['Run it yourself.'], details: { stderr: 'SyntaxError: nope' } })
  t.mock.restoreAll()
  const text = lines.join('')
  t.assert.match(text, /FAIL: exercise x/)
  t.assert.match(text, /\* Run it yourself\./)
  t.assert.match(text, /SyntaxError: nope/)
})

test('jsonShape keeps the keys, their order, the types and the string lengths, not the values', (t) => {
  const a = h.jsonShape('{"data":"abcd","url":"/seed/v1","ts":1,"n":null,"list":[1,"x"]}')
  t.assert.strictEqual(a, h.jsonShape('{"data":"wxyz","url":"/seed/v2","ts":2,"n":null,"list":[3,"y"]}'))
  t.assert.strictEqual(a, '{"data":"string(4)","url":"string(8)","ts":"number","n":"null","list":["number","string(1)"]}')
  t.assert.notStrictEqual(a, h.jsonShape('{"url":"/seed/v1","data":"abcd","ts":1,"n":null,"list":[1,"x"]}'), 'key order counts')
  t.assert.notStrictEqual(a, h.jsonShape('{"data":"abcde","url":"/seed/v1","ts":1,"n":null,"list":[1,"x"]}'), 'string length counts')
  t.assert.notStrictEqual(a, h.jsonShape('{"data":"abcd","url":"/seed/v1","ts":"1","n":null,"list":[1,"x"]}'), 'type counts')
  t.assert.strictEqual(h.jsonShape('not json'), 'not JSON')
})
