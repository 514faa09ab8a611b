'use strict'
// Integration (make test-integration): servers of the calibration set (tests/fixtures/diagnose/),
// one of each verdict, diagnosed live under a short load, and make diagnose end to end. The rules
// are unit-tested on recorded evidence (tests/unit/diagnose.test.js); the whole set, many times each,
// is the calibration (scripts/calibrate-diagnosis.js, docs/method.md "The diagnosis, calibrated and held out"). A failure prints
// the verdict and every number of the evidence.
const { test } = require('node:test')
const { execFile } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { promisify } = require('node:util')

const results = fs.mkdtempSync(path.join(os.tmpdir(), 'workbook-diagnose-'))
process.env.WORKBOOK_RESULTS_DIR = results // before the harness reads it
const tools = require('@workbook/tools')
const { freePort } = require('../unit/helpers')

const root = path.join(__dirname, '..', '..')
const fixtures = path.join(root, 'tests', 'fixtures', 'diagnose')
const { cases } = JSON.parse(fs.readFileSync(path.join(fixtures, 'cases.json'), 'utf8'))
// The stretches the thresholds were set on (WORKBOOK_PROFILE=quick), whatever the profile.
const SHORT = { warmupSeconds: 1, seconds: 4, profileSeconds: 3, live: false, report: false }
process.on('exit', () => fs.rmSync(results, { recursive: true, force: true }))

/** The verdict, and every number of the evidence it was decided from: what a failure prints. */
function explain(d) {
  const { flame, allocations, ...numbers } = d.evidence
  return `${d.text}\n--- evidence ---\n${JSON.stringify({ ...numbers, hot: flame.hot.slice(0, 5) }, null, 1)}`
}

async function diagnosed(name) {
  const c = cases.find((x) => x.name === name)
  const d = await tools.diagnose(path.join(fixtures, c.file), {
    ...SHORT,
    ...c.diagnose,
    route: c.route ?? '/',
    start: { env: c.env },
  })
  return { c, d, why: explain(d) }
}

// One case of each verdict, the two the first issue named (short synchronous I/O, a regular
// expression), and the three of issue 34: work on libuv's pool, a large heap that does not grow, and
// a file with two regular expressions of which the second runs. The healthy one, "healthy, heavy
// load" (healthy.js as it is), is diagnosed from the command line below.
const ONE_OF_EACH = [
  'app code, 10 ms a request',
  'small sync reads and writes',
  'regular expression, long input',
  'GC churn, 50,000 rows',
  'heap leak, small entries',
  'leak outside the heap, 64 KB Buffers',
  'async waits of 50 ms',
  "crypto.pbkdf2 on libuv's pool",
  'a large read-only heap, 300 MB',
  'regular expression beside a harmless one',
]

for (const name of ONE_OF_EACH) {
  test(`calibration case "${name}": its verdict, with where the time goes`, async (t) => {
    const { c, d, why } = await diagnosed(name)
    t.assert.strictEqual(d.verdict.id, c.verdict, why)
    if (c.cause) t.assert.strictEqual(d.verdict.cause, c.cause, why)
    if (c.verdict === 'sync-io') {
      t.assert.match(d.text, /under (readFileSync|writeFileSync|appendFileSync) \(node:fs:\d+, Node's\)/, why)
      t.assert.match(d.text, /called from visit \(tests\/fixtures\/diagnose\/sync-small-rw\.js:\d+, the app's\)/, why)
      t.assert.match(d.text, /many short stalls/, why)
    }
    if (c.cause === 'regex') {
      t.assert.match(d.text, /the regular expression \/\^\(\[a-z0-9\]\+\)\+\$\/ ran \d+ % of the busy time/, why)
      t.assert.doesNotMatch(d.text, /\[\^A-Za-z0-9\]/, why) // the harmless one beside it never
    }
    if (c.cause === 'pool') {
      t.assert.match(d.text, /libuv's thread pool \d+(\.\d+)? % \(4 threads/, why)
      t.assert.match(d.text, /handed to the pool: pbkdf2 \(node:internal\/crypto\/pbkdf2\), called from work/, why)
    }
    if (c.file === 'big-heap.js') {
      t.assert.strictEqual(d.verdict.memory, 'flat', why)
      t.assert.match(d.text, /a large heap, 3\d\d MB, that does not grow: not a leak/, why)
    }
    if (c.cause === 'app')
      t.assert.match(d.text, /hot: score \(tests\/fixtures\/diagnose\/cpu-work\.js:\d+, the app's\)/, why)
    if (c.verdict === 'healthy') t.assert.strictEqual(d.verdict.busiest, 'node', why)
  })
}

// The yardstick (issue 48): servers that differ ten times and more on what a request costs against the
// reference measured beside them. The cheapest server there is, its one-line handler most of a tiny
// total, is healthy; a config deep-copied with structuredClone per request is blocked by the app, at the
// app's line; a scan in a package that express's router calls is blocked by that package, on its path.
test('the yardstick: a one-line handler at its reference is healthy; a structuredClone per request is far above it, blocked at its line', async (t) => {
  const cheap = await diagnosed('a one-line handler')
  const clone = await diagnosed('structuredClone of the config per request')
  const numbers = `one-line: ${cheap.d.evidence.yardstick?.ratio}x, structuredClone: ${clone.d.evidence.yardstick?.ratio}x`
  t.assert.strictEqual(cheap.d.verdict.id, 'healthy', `${numbers}\n${cheap.why}`)
  t.assert.ok(clone.d.evidence.yardstick.ratio >= 10 * cheap.d.evidence.yardstick.ratio, `${numbers}\n${clone.why}`)
  t.assert.deepStrictEqual([clone.d.verdict.id, clone.d.verdict.cause], ['blocked', 'app'], clone.why)
  t.assert.match(clone.d.text, /of CPU a request: \d+(\.\d+)?x a bare node:http answer/, clone.why)
  t.assert.match(
    clone.d.text,
    // the path starts at the app's first frame: the handler when the profile kept it, else settingsFor
    /hot path \(the app's code, \d+ % of the busy time\): (?:\(anonymous\) \(tests\/fixtures\/diagnose\/clone-config\.js:\d+\) → settingsFor|settingsFor \(tests\/fixtures\/diagnose\/clone-config\.js:\d+\)) → structuredClone/,
    clone.why,
  )
  t.assert.match(
    clone.d.text,
    /the app's line: tests\/fixtures\/diagnose\/clone-config\.js:\d+ `const copy = structuredClone\(config\)`/,
    clone.why,
  )
})

test("the yardstick: a scan in a package that express's router calls is that package's, against express's reference", async (t) => {
  const { d, why } = await diagnosed('a dependency the router calls, a scan of 100,000 records')
  t.assert.deepStrictEqual([d.verdict.id, d.verdict.cause], ['blocked', 'dependency'], why)
  t.assert.strictEqual(d.evidence.yardstick.against, 'framework', why)
  t.assert.match(d.text, /x Express [\d.]+'s hello route \([\d.]+ ms\) and [\d.]+x a bare node:http answer/, why)
  t.assert.match(
    d.text,
    /hot path \(record-store's code, \d+ % of the busy time\): getById \(tests\/fixtures\/diagnose\/node_modules\/record-store\/index\.js:\d+\) → find → matches \(.*index\.js:\d+\), called by router's/,
    why,
  )
})

// Notebook 06 ranks the shop's four routes (notebooks/shop/routes.json) and checks each verdict; this
// checks what the command line prints of a ranking, on two of them: the costliest listed first, whatever
// the order of the file.
test('several routes in one run, from a routes file: ranked by CPU per request against the reference, a verdict each', async (t) => {
  const run = promisify(execFile)
  const app = path.join('notebooks', 'shop', 'server.js')
  const { stdout } = await run(
    process.execPath,
    ['scripts/diagnose.js', app, '--routes', 'tests/fixtures/diagnose/shop-routes.json'],
    {
      cwd: root,
      env: { ...process.env, WORKBOOK_PROFILE: 'quick' },
    },
  )
  const ranking = stdout.slice(stdout.lastIndexOf('routes of '))
  t.assert.match(
    ranking,
    /^routes of \S+, costliest first against Express [\d.]+'s hello route \([\d.]+ ms a request; far above it from [\d.]+x\):$/m,
    stdout,
  )
  t.assert.match(
    ranking,
    /^ {2}1\. GET \/search\?q=night%20tolkien +[\d.]+ ms +[\d.]+x +loop blocked by the app's own code$/m,
    stdout,
  )
  t.assert.match(ranking, /^ {2}2\. GET \/books\/12345 +[\d.]+ ms +[\d.]+x +healthy$/m, stdout)
  t.assert.match(stdout, /^report: .*routes\.html$/m)
})

test('a server with a second listener is diagnosed on the port it was given in PORT, or on the one named', async (t) => {
  const file = path.join(root, 'tests', 'fixtures', 'servers', 'listens-twice.js')
  const d = await tools.diagnose(file, SHORT)
  t.assert.strictEqual(d.verdict.id, 'healthy', explain(d))
  // the port named from the command line (make diagnose ... PORT=N): the app gets it in PORT and listens there
  const port = await freePort()
  const run = promisify(execFile)
  const { stdout, stderr } = await run(process.execPath, ['scripts/diagnose.js', file, '--port', String(port)], {
    cwd: root,
    env: { ...process.env, WORKBOOK_PROFILE: 'quick' },
  }).catch((e) => e)
  t.assert.match(stdout ?? '', /^verdict: healthy/m, `${stdout}\n${stderr}`)
})

// A route slower than the warm-up is long (argon2's hash answered in 1.5 s under load) leaves the
// warm-up with no answer: a slow server, diagnosed on the answers of the watched load, not a failed one.
test('a route that answers in 2.5 s, longer than the warm-up, is diagnosed: waiting, not a failed load', async (t) => {
  const file = path.join(root, 'tests', 'fixtures', 'apps', 'answers-late.js')
  const d = await tools.diagnose(file, { ...SHORT, route: '/late' })
  t.assert.strictEqual(d.verdict.id, 'waiting', explain(d))
})

// The calibration case "healthy, heavy load": the same file and stretches as the cases above (the quick profile's).
test('a healthy server, diagnosed from the command line: healthy, the report written, the time it took', async (t) => {
  const run = promisify(execFile)
  const { stdout } = await run(process.execPath, ['scripts/diagnose.js', path.join(fixtures, 'healthy.js')], {
    cwd: root,
    env: { ...process.env, WORKBOOK_PROFILE: 'quick' },
  })
  t.assert.match(stdout, /^verdict: healthy/m, stdout)
  t.assert.match(stdout, /^ {2}where the busy time went: Node's own request handling \d+ %/m, stdout)
  const report = /^report: (.+\.html)$/m.exec(stdout)?.[1]
  t.assert.ok(report, stdout)
  const html = fs.readFileSync(path.resolve(root, report), 'utf8')
  t.assert.match(html, /<pre>verdict: healthy/)
  t.assert.ok((html.match(/<svg/g) ?? []).length >= 4, 'four charts inline')
  // nothing from elsewhere: no script, no stylesheet, image or font fetched
  t.assert.deepStrictEqual(html.match(/<script|<link|<img|url\(|@import|src=/g), null)
  t.assert.match(stdout, /^took \d+\.\d s$/m)
})
