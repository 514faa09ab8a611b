'use strict'
// The exercise check's own contract, on small fixtures and short loads: specs, messages, the
// p99-with-background shape of exercise 02, and that nothing is left running. The measured checks
// of the real exercises (both ways, and the bad submissions) are in tests/exercises/.
const { test } = require('node:test')
const path = require('node:path')
const fs = require('node:fs')
const os = require('node:os')
const h = require('@workbook/harness')
const { checkInProcess, running } = require('@workbook/harness/internal')
const ex = require('@workbook/harness/exercises')
const { serveHere, exerciseSpec: spec } = require('./helpers')
const { compareResponses, jsonShape } = require('./helpers').internal('exercises/answers')
const { freshPath } = require('./helpers').internal('load/timing')
const { loadSpec } = require('./helpers').internal('exercises/spec')
const { ratioMessage } = require('./helpers').internal('exercises/report')
const { pacedLoad } = require('./helpers').internal('load/paced')

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
  const r = await checkInProcess(spec())
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
  const r = await checkInProcess(spec(), { ...SHORT, submissionDir: dir })
  t.assert.strictEqual(r.pass, false)
  t.assert.strictEqual(r.details.stage, 'start')
  t.assert.match(r.message, /There is no unblock-done\.js in /)
})

// The fixtures differ without bound: unblock-done answers /late at once, answers-late after 2.5 s, longer than a 1 s round.

test('an app that crashes on its first request is told apart from one that answers 500', async (t) => {
  const crash = await checkInProcess(spec({ app: { entry: 'unblock-crash.js', probe: '/cheap' } }), SHORT)
  t.assert.strictEqual(crash.details.stage, 'start')
  t.assert.match(
    crash.message,
    /^Your app crashed on its first request, GET \/cheap: ReferenceError: CHEEP is not defined \(unblock-crash\.js:\d+\)\.$/,
  )
  t.assert.match(crash.details.stderr, /ReferenceError: CHEEP is not defined/)
  const failing = await checkInProcess(spec({ app: { entry: 'unblock-500.js', probe: '/cheap' } }), SHORT)
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
  const r = await checkInProcess(spec({ app: { entry: 'not-found.js' } }), SHORT)
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

test('checkExercise runs the check as make grade does, in a process of its own, and reads its result back', async (t) => {
  const missing = await ex.checkExercise('no-such-exercise')
  t.assert.strictEqual(missing.pass, false)
  t.assert.strictEqual(missing.details.stage, 'spec')
  t.assert.match(missing.message, /^no check spec at exercises\/no-such-exercise\/check\.json$/)
  const dir = path.join(h.repoRoot, 'tests', 'fixtures', 'submissions', 'syntax-error', '04-hot-path')
  const r = await ex.checkExercise('04-hot-path', { submissionDir: dir })
  t.assert.strictEqual(r.pass, false)
  t.assert.strictEqual(r.details.stage, 'start')
  t.assert.match(r.message, /^Your app exited before it listened \(code 1\): SyntaxError: Unexpected end of input/)
  t.assert.strictEqual(
    r.command.replace(/^WORKBOOK_PROFILE=\w+ /, ''),
    'node_modules/node/bin/node scripts/check-exercise.js 04-hot-path --submission-dir tests/fixtures/submissions/syntax-error/04-hot-path',
  )
  t.assert.deepStrictEqual(running(), [])
})

test('loadSpec refuses {i} in the load path without a cycle, and env values that are not strings', (t) => {
  const base = {
    exercise: 'x',
    app: { entry: 'a.js' },
    baseline: { entry: 'b.js' },
    requests: [],
    load: { path: '/q?p={i}', rate: 100, requests: 100 },
    metric: 'heapGrowth',
    threshold: 5,
  }
  t.assert.throws(() => loadSpec(base), /\{i\} in load\.path needs load\.cycle, a whole number > 0/)
  t.assert.throws(() => loadSpec({ ...base, load: { ...base.load, cycle: 2.5 } }), /needs load\.cycle/)
  t.assert.throws(
    () => loadSpec({ ...base, load: { ...base.load, cycle: 4 }, env: { N: 50 } }),
    /env maps names to strings/,
  )
  const real = loadSpec('05-leak')
  t.assert.strictEqual(real.load.cycle, 20)
  t.assert.deepStrictEqual(real.env, { QUOTE_MINUTE_MS: '50' })
})

test('pacedLoad with {i} and a cycle asks each value in turn', async (t) => {
  const asked = []
  const url = await serveHere(t, (req, res) => {
    asked.push(new URL(req.url, 'http://x').searchParams.get('p'))
    res.end('ok')
  })
  const r = await pacedLoad({ target: url, path: '/q?p={i}', cycle: 3, rate: 100, seconds: 0.1, pin: false })
  t.assert.strictEqual(r.totalRequests, 10)
  const counts = Object.fromEntries(['0', '1', '2'].map((v) => [v, asked.filter((a) => a === v).length]))
  t.assert.deepStrictEqual(counts, { 0: 4, 1: 3, 2: 3 })
  await t.assert.rejects(
    () => pacedLoad({ target: url, path: '/q?p={i}', cycle: 0, rate: 100, seconds: 0.1 }),
    /cycle must be a whole number > 0, got 0/,
  )
})

test('a heap growth below the floor is printed with its digits and the floor it counted as', (t) => {
  const growth = spec({
    metric: 'heapGrowth',
    load: { path: '/quote?product={i}', cycle: 20, rate: 500, requests: 1000 },
    env: { QUOTE_MINUTE_MS: '50' },
    background: undefined,
    threshold: 5,
    maxGrowthMB: 5,
  })
  const d = {
    metric: 'heapGrowth',
    baseline: [30.9, 31.2, 30.7],
    submission: [0.0123, -0.004, 0.02],
    responses: [{}, {}],
  }
  const text = ratioMessage(growth, 'the starting point', d, [124, 124, 123], 123.6)
  t.assert.match(
    text,
    /^Your app's heap grew 0\.0123 MB \(counted as 0\.25 MB, the least growth a reading tells from none\) over 1000 requests to \/quote\?product=\{i\} \(\{i\} from 0 to 19 in turn\) at 500\/s, against the starting point's 30\.9 MB /,
  )
  t.assert.match(text, /both apps ran with QUOTE_MINUTE_MS=50;/)
  t.assert.match(
    text,
    /: 123\.6x less; the exercise asks for at least 5x less and at most 5 MB of growth\. All 2 answers match\.$/,
  )
})

test('a latency check says nothing of how late its generator sent: the check times each latency from when it went', (t) => {
  const d = {
    metric: 'p99',
    decidedOn: 'p99',
    baseline: [40, 41, 39],
    submission: [4, 5, 4],
    background: null,
    responses: [{}],
    generatorSaturated: true,
  }
  const text = ratioMessage(spec({ background: undefined }), 'the starting point', d, [10, 8.2, 9.75], 8.2)
  t.assert.match(
    text,
    /round by round 10\.0x, 8\.20x, 9\.75x\): 8\.2x; the exercise asks for at least 3x\. All 1 answers match\.$/,
  )
  t.assert.doesNotMatch(text, /sent late|likely/)
})

test('pacedLoad times from when a request was due by default, and from when it went with timeFrom "sent"', async (t) => {
  const url = await serveHere(t, (req, res) => res.end('ok'))
  // This process (the generator) blocks for 1 s early in a 1.5-s load at 100 req/s: 100 requests fall
  // due while it is blocked, 60 of them 400 ms or more before it ends, and go out late, at once, to a
  // server that answers at once. Timed from when they were due, those 60 take 400-1000 ms; timed from
  // when they went, each takes what answering a burst of 100 costs: a few ms, tens on a busy machine,
  // ten times under the 400 ms that decides. A request that went just before the block and was still in
  // flight when it began waits with the generator whichever way it is timed (a CI run saw one, due at
  // 0.12 s): the "sent" count leaves out what fell due before 0.2 s, well after the block began.
  const blocked = (timeFrom) => {
    setTimeout(() => {
      const end = Date.now() + 1000
      while (Date.now() < end) {}
    }, 120)
    return pacedLoad({ target: url, path: '/', rate: 100, seconds: 1.5, pin: false, timeFrom })
  }
  const slow = (xs) => xs.filter((x) => x.latencyMs >= 400).length
  const worst = (xs) => Math.max(...xs.map((x) => x.latencyMs)).toFixed(1)
  const due = await blocked(undefined)
  const sent = await blocked('sent')
  const sentLater = sent.samples.filter((x) => x.t >= 0.2)
  const figures = `due: ${slow(due.samples)} of ${due.samples.length} took 400 ms or more (worst ${worst(due.samples)} ms, send lag ${due.sendLagMs.max} ms); sent, due from 0.2 s on: ${slow(sentLater)} of ${sentLater.length} (worst ${worst(sentLater)} ms; all ${sent.samples.length}: ${slow(sent.samples)}, send lag ${sent.sendLagMs.max} ms)`
  t.assert.ok(due.sendLagMs.max >= 800 && sent.sendLagMs.max >= 800, figures)
  t.assert.ok(slow(due.samples) >= 45, figures)
  t.assert.ok(slow(sentLater) === 0, figures)
})
