'use strict'
// Integration (make test-integration): servers of the calibration set (tests/fixtures/diagnose/),
// one of each verdict, diagnosed live under a short load, and make diagnose end to end. The rules
// are unit-tested on recorded evidence (tests/unit/diagnose.test.js); the whole set, many times each,
// is the calibration (scripts/calibrate-diagnosis.js, README "Your own server"). A failure prints
// the verdict and every number of the evidence.
const { test } = require('node:test')
const { execFile } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { promisify } = require('node:util')

const results = fs.mkdtempSync(path.join(os.tmpdir(), 'workbook-diagnose-'))
process.env.WORKBOOK_RESULTS_DIR = results // before the harness reads it
const wb = require('@workbook/harness')

const root = path.join(__dirname, '..', '..')
const fixtures = path.join(root, 'tests', 'fixtures', 'diagnose')
const { cases } = JSON.parse(fs.readFileSync(path.join(fixtures, 'cases.json'), 'utf8'))
// The stretches the thresholds were set on (WORKBOOK_PROFILE=quick), whatever the profile.
const SHORT = { warmupSeconds: 1, seconds: 4, profileSeconds: 3, live: false, report: false }
process.on('exit', () => fs.rmSync(results, { recursive: true, force: true }))

async function diagnosed(name) {
  const c = cases.find((x) => x.name === name)
  const d = await wb.diagnose(path.join(fixtures, c.file), { ...SHORT, ...c.diagnose, start: { env: c.env } })
  const { flame, allocations, ...numbers } = d.evidence
  const why = `${d.text}\n--- evidence ---\n${JSON.stringify({ ...numbers, hot: flame.hot.slice(0, 5) }, null, 1)}`
  return { c, d, why }
}

// One case of each verdict, and the two the issue named: short synchronous I/O, and a regular expression.
const ONE_OF_EACH = [
  'app code, 10 ms a request',
  'small sync reads and writes',
  'regular expression, long input',
  'GC churn, 50,000 rows',
  'heap leak, small entries',
  'leak outside the heap, 64 KB Buffers',
  'async waits of 50 ms',
  'healthy, heavy load',
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
    if (c.cause === 'regex')
      t.assert.match(d.text, /the regular expression \/\^\(\[a-z0-9\]\+\)\+\$\/ ran \d+ % of the busy time/, why)
    if (c.cause === 'app')
      t.assert.match(d.text, /hot: score \(tests\/fixtures\/diagnose\/cpu-work\.js:\d+, the app's\)/, why)
    if (c.verdict === 'healthy') t.assert.strictEqual(d.verdict.busiest, 'node', why)
  })
}

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
