'use strict'
// The diagnosis (harness/src/diagnose): its rules on made-up evidence, the way it cuts the watched
// seconds, and make diagnose's usage. The fixture servers diagnosed live are integration tests
// (tests/integration/diagnose.test.js, make test-integration).
const { test } = require('node:test')
const path = require('node:path')

const { internal } = require('./helpers')
const { decide } = internal('diagnose/verdict')
const { checkText } = internal('diagnose/checks')

const root = path.join(__dirname, '..', '..')

// --- the rules, on evidence made up to sit where each rule should fire

const frame = (name, file, category, share) => ({
  name,
  file,
  line: 3,
  category,
  selfShare: share,
  totalShare: share,
  attributedShare: share,
})
const SHARES = { gc: 0.03, regex: 0, syncIo: 0, native: 0, app: 0.12, dependency: 0, node: 0.85 }
function evidence(over = {}) {
  const hog = frame('score', 'srv.js', 'user', 0.9)
  const { shares, ...rest } = over
  return {
    seconds: 4,
    samples: 20,
    reqPerSec: 5000,
    latencyP50Ms: 2,
    latencyP99Ms: 5,
    cpuPerRequestMs: 0.2,
    latencyOverCpu: 10,
    elu: 0.6,
    cpuPercent: 60,
    stallMs: 3,
    maxStallMs: 12,
    gcShare: 0.05,
    gcCount: 40,
    gcByKind: { minor: 200 },
    heap: { startMB: 10, endMB: 10.2, slopeMBps: 0.05, r2: 0.1, keptStartMB: 6, keptEndMB: 6, keptMBps: 0 },
    rss: { startMB: 70, endMB: 71, slopeMBps: 0.2 },
    external: { startMB: 1, endMB: 1, keptStartMB: 1, keptEndMB: 1, keptMBps: 0 },
    busy: { shares: { ...SHARES, ...shares }, busySamples: 1000, regex: null },
    allocMBps: 50,
    syncIoShare: 0,
    hot: [hog],
    hottestLine: { line: 5, samples: 90, share: 0.9, text: 'x += Math.sqrt(i)', file: 'srv.js', name: 'score' },
    allocationSites: [frame('render', 'srv.js', 'user', 0.8)],
    busyShare: 0.6,
    generatorSaturated: false,
    flame: { hot: [hog], hottestUser: hog },
    allocations: { hot: [] },
    ...rest,
  }
}
// The rules on fixed lines, whatever calibration ships (tests/unit/diagnose-recorded.test.js judges
// recorded evidence by the shipped ones).
const LINES = {
  ...internal('diagnose/thresholds').THRESHOLDS,
  BUSY_ELU: 0.9,
  GC_SHARE: 0.34,
  BLOCKING_SHARE: 0.13,
  WAITING_LATENCY_OVER_CPU: 20,
  HEAP_KEPT_MB_S: 1,
  EXTERNAL_KEPT_MB_S: 1,
  LONG_STALL_MS: 20,
  RUNNER_UP_CLOSE: 0.8,
  NEAR: 1.25,
}
const judge = (over) => decide(evidence(over), LINES)
const only = (kind, share = 0.9) => ({
  ...SHARES,
  node: 1 - share,
  [kind]: share,
  gc: 0,
  app: kind === 'app' ? share : 0,
})

test('a loop with headroom is healthy, and the verdict says what kept each other reading from firing', (t) => {
  const v = judge()
  t.assert.strictEqual(v.id, 'healthy')
  t.assert.strictEqual(v.mixed, false)
  t.assert.deepStrictEqual(v.lines.slice(0, 3), [
    'verdict: healthy',
    '  the loop has headroom: event-loop utilisation 60 % < 90 %',
    "  where the busy time went: Node's own request handling 85 %, the app's own code 12 %, garbage collection 3 %",
  ])
  t.assert.match(v.lines.join('\n'), /not waiting: latency p50 over CPU per request 10\.0x < 20\.0x/)
  t.assert.match(v.lines.join('\n'), /not memory climbing: growth of the heap kept after a full GC 0 MB\/s < 1 MB\/s/)
})

test("a saturated loop busy with Node's own request handling is healthy too: busy is not blocked", (t) => {
  const v = judge({ elu: 0.99 })
  t.assert.strictEqual(v.id, 'healthy')
  t.assert.strictEqual(v.busiest, 'node')
  t.assert.match(v.lines[1], /the loop is busy with Node's own request handling: event-loop utilisation 99 % >= 90 %/)
})

test('a saturated loop is named after what its busy time went to, with where to look', (t) => {
  const cases = [
    ['app', 'blocked', 'app', /hot: score \(srv\.js:3, the app's\) 90 % of busy CPU[\s\S]*hottest line: srv\.js:5/],
    ['dependency', 'blocked', 'dependency', /loop blocked by a dependency's code/],
    ['native', 'blocked', 'native', /loop blocked by a native synchronous call/],
    ['syncIo', 'sync-io', null, /loop blocked by synchronous I\/O/],
  ]
  for (const [kind, id, cause, text] of cases) {
    const v = judge({ elu: 0.99, shares: only(kind) })
    t.assert.deepStrictEqual([v.id, v.cause, v.busiest], [id, cause, kind], kind)
    t.assert.match(v.lines.join('\n'), text, kind)
    t.assert.match(v.lines.join('\n'), /where the busy time went: .* 90 %/, kind)
  }
})

test('a regular expression is named with its pattern and the frame that ran it', (t) => {
  const caller = { name: 'validate', file: 'srv.js', line: 12, category: 'user' }
  const busy = {
    shares: only('regex', 0.95),
    busySamples: 900,
    regex: { pattern: '^([a-z0-9]+)+$', share: 0.95, caller },
  }
  const v = judge({ elu: 1, stallMs: 60, busy })
  t.assert.deepStrictEqual([v.id, v.cause], ['blocked', 'regex'])
  t.assert.match(
    v.lines.join('\n'),
    /the regular expression \/\^\(\[a-z0-9\]\+\)\+\$\/ ran 95 % of the busy time, run by validate \(srv\.js:12\)/,
  )
})

test('long stalls and many short ones are both blocking; the verdict says which, and whether requests queue', (t) => {
  const long = judge({ elu: 1, stallMs: 120, shares: only('app') })
  const short = judge({ elu: 1, stallMs: 2, shares: only('app'), latencyOverCpu: 9.5 })
  t.assert.strictEqual(long.id, 'blocked')
  t.assert.strictEqual(short.id, 'blocked')
  t.assert.match(long.lines.join('\n'), /long stalls: the loop was held up 120 ms at a time/)
  t.assert.match(short.lines.join('\n'), /many short stalls: 2 ms at a time \(typical, under 20 ms\)/)
  t.assert.match(
    short.lines.join('\n'),
    /requests queue: a request took 2 ms at p50, 9\.50x the 0\.2 ms of CPU it costs/,
  )
})

test("GC pressure: a saturated loop whose collector's share of busy time reaches its line", (t) => {
  const v = judge({ elu: 1, shares: { ...SHARES, gc: 0.55, app: 0.35, node: 0.1 } })
  t.assert.deepStrictEqual([v.id, v.busiest], ['gc-pressure', 'gc'])
  t.assert.match(v.lines.join('\n'), /share of busy time in garbage collection 55 % >= 34 %/)
  // allocating is the app's own work too: GC over its line decides even when the code's share is larger
  const churn = judge({ elu: 1, shares: { ...SHARES, gc: 0.45, app: 0.5, node: 0.05 } })
  t.assert.deepStrictEqual([churn.id, churn.mixed], ['gc-pressure', true])
  t.assert.match(churn.lines.at(-1), /the app's own code \(50 %\) is larger than garbage collection \(45 %\)/)
  // the app's code larger: blocked by it, with the collector's share said beside it
  const app = judge({ elu: 1, shares: { ...SHARES, gc: 0.3, app: 0.65, node: 0.05 } })
  t.assert.deepStrictEqual([app.id, app.cause], ['blocked', 'app'])
  t.assert.match(app.lines.join('\n'), /where the busy time went: the app's own code 65 %, garbage collection 30 %/)
})

test("below the blocking line, a saturated loop's time went to Node's own request handling: healthy", (t) => {
  const v = judge({ elu: 1, shares: { ...SHARES, gc: 0.06, app: 0.1, node: 0.84 } })
  t.assert.deepStrictEqual([v.id, v.busiest], ['healthy', 'node'])
  t.assert.match(v.lines[1], /garbage collection stays under 34 % of it and no other kind reaches 13 %/)
})

test('waiting: a loop with headroom, and a request far slower than the CPU it costs', (t) => {
  t.assert.strictEqual(judge({ elu: 0.05, latencyOverCpu: 200 }).id, 'waiting')
  t.assert.strictEqual(judge({ elu: 0.05, latencyOverCpu: 5 }).id, 'healthy')
  // a saturated loop is never "waiting", however slow its requests
  t.assert.notStrictEqual(judge({ elu: 0.99, latencyOverCpu: 200, shares: only('app') }).id, 'waiting')
})

test('memory climbing: the heap, or the memory outside it, that a full GC leaves growing', (t) => {
  const heap = { startMB: 10, endMB: 50, slopeMBps: 10, r2: 0.9, keptStartMB: 8, keptEndMB: 40, keptMBps: 8 }
  const climbing = judge({ heap })
  t.assert.strictEqual(climbing.id, 'memory-climbing')
  t.assert.match(climbing.lines.join('\n'), /growth of the heap kept after a full GC 8 MB\/s >= 1 MB\/s/)
  t.assert.match(climbing.lines.join('\n'), /heapUsed 10 → 50 MB, kept after a full GC 8 → 40 MB/)
  const external = { startMB: 1, endMB: 40, keptStartMB: 1, keptEndMB: 33, keptMBps: 8 }
  const buffers = judge({ external })
  t.assert.strictEqual(buffers.id, 'memory-climbing')
  t.assert.match(
    buffers.lines.join('\n'),
    /growth of the memory outside the heap kept after a full GC 8 MB\/s >= 1 MB\/s/,
  )
  // a sawtooth of garbage: a steep slope, but a full GC leaves no more than before
  t.assert.strictEqual(judge({ heap: { ...heap, keptEndMB: 8, keptMBps: 0 } }).id, 'healthy')
  // a leak on a saturated loop: memory first, the loop's verdict beside it, and the evidence mixed
  const both = judge({ heap, elu: 1, shares: only('app') })
  t.assert.strictEqual(both.id, 'memory-climbing')
  t.assert.ok(both.lines.includes("also: loop blocked by the app's own code"), both.lines.join('\n'))
  t.assert.match(both.lines.at(-1), /^mixed evidence: loop blocked by the app's own code holds too$/)
})

test('mixed evidence: a deciding reading close to its line, or a runner-up close to the largest kind', (t) => {
  const close = judge({ elu: 0.99, shares: { ...SHARES, gc: 0.02, app: 0.14, node: 0.84 } })
  t.assert.strictEqual(close.id, 'blocked')
  t.assert.match(close.lines.at(-1), /close to the line: share of busy time in the app's own code 14 % >= 13 %/)
  const tie = judge({ elu: 0.99, shares: { ...SHARES, gc: 0, app: 0.45, node: 0.15, syncIo: 0.4 } })
  t.assert.strictEqual(tie.id, 'blocked')
  t.assert.match(tie.lines.at(-1), /synchronous I\/O \(40 %\) is close to the app's own code \(45 %\)/)
  // a share near 1 is compared by what is left of it: 98 % busy is not "close to" 90 %
  t.assert.strictEqual(judge({ elu: 0.98, shares: only('app') }).mixed, false)
  // a reading that would print as its line gets one more digit, so the sign between them reads true
  const { check } = internal('diagnose/checks')
  t.assert.strictEqual(checkText(check('busy', 0.8962, '>=', 0.9, 'share')), 'busy 89.6 % < 90 %')
  t.assert.strictEqual(checkText(check('ratio', 19.98, '>=', 20, 'x')), 'ratio 19.98x < 20.0x')
  t.assert.strictEqual(checkText(check('stall', 20, '>=', 20, 'ms')), 'stall 20 ms >= 20 ms')
})

// --- the watched stretch: cut on the app's own clock, and refused when its samples are too few

const { AppChannel } = internal('apps/channel')
const { covering } = internal('diagnose/collect')
const tick = (mono, intervalMs = 200) => ({ t: 1_800_000_000_000 - 3_600_000 * (mono > 2000), mono, intervalMs })

test("a stretch's samples are cut on the app's monotonic clock, whatever the wall clock did", (t) => {
  const channel = new AppChannel('x')
  // the wall clock is stepped back an hour halfway: every sample after it has a t before the stretch began
  channel.samples.push(...[200, 400, 1000, 2200, 3000, 4000, 4400].map((m) => tick(m)))
  t.assert.deepStrictEqual(
    channel.samplesIn(300, 4000).map((s) => s.mono),
    [400, 1000, 2200, 3000, 4000],
  )
  channel.close()
})

test('a diagnosis refuses a verdict from samples covering under half the watched seconds, and says why', (t) => {
  const win = { from: 0, to: 4000, startedAt: 0 }
  const all = Array.from({ length: 20 }, (_, i) => tick(200 * (i + 1)))
  t.assert.strictEqual(covering('srv', win, all).length, 20)
  t.assert.strictEqual(covering('srv', win, all.slice(0, 10)).length, 10) // half: enough
  for (const few of [[], all.slice(0, 2)]) {
    t.assert.throws(
      () => covering('srv', win, few),
      (e) =>
        e.code === 'WB_NO_REPORT' &&
        e.message.includes(
          `sent ${few.length} samples covering ${(few.length * 0.2).toFixed(1)} s of the 4.0 s watched`,
        ) &&
        /Diagnose again/.test(e.message),
    )
  }
})

test('make diagnose without APP fails with its usage, before setting anything up', (t) => {
  const r = require('node:child_process').spawnSync('make', ['--no-print-directory', 'diagnose'], {
    cwd: root,
    encoding: 'utf8',
  })
  t.assert.notStrictEqual(r.status, 0)
  t.assert.match(r.stderr, /usage: make diagnose APP=path\/to\/server\.js \[ROUTE=\/path\]/)
})
