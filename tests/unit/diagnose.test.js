'use strict'
// The diagnosis (harness/src/diagnose): its rules on made-up evidence, then six ordinary servers
// (tests/fixtures/servers/), each with one way of being slow, told apart under a short load. The
// assertions on measured numbers keep wide margins: the tests run on 2 noisy cores.
const { test } = require('node:test')
const { execFile } = require('node:child_process')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { promisify } = require('node:util')

const results = fs.mkdtempSync(path.join(os.tmpdir(), 'workbook-diagnose-'))
process.env.WORKBOOK_RESULTS_DIR = results // before the harness reads it
const wb = require('@workbook/harness')
const { server, internal } = require('./helpers')
const { decide } = internal('diagnose/verdict')
const { checkText } = internal('diagnose/checks')
const { THRESHOLDS: T } = internal('diagnose/thresholds')

const root = path.join(__dirname, '..', '..')
// The stretches the thresholds were set on (WORKBOOK_PROFILE=quick), whatever the profile.
const SHORT = { warmupSeconds: 1, seconds: 4, profileSeconds: 3, live: false }
process.on('exit', () => fs.rmSync(results, { recursive: true, force: true }))

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
function evidence(over = {}) {
  const hog = frame('score', 'srv.js', 'user', 0.9)
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
    allocMBps: 50,
    syncIoShare: 0,
    hot: [hog],
    hottestLine: { line: 5, samples: 90, share: 0.9, text: 'x += Math.sqrt(i)', file: 'srv.js', name: 'score' },
    allocationSites: [frame('render', 'srv.js', 'user', 0.8)],
    busyShare: 0.6,
    generatorSaturated: false,
    flame: { hot: [hog], hottestUser: hog },
    allocations: { hot: [] },
    ...over,
  }
}

test('healthy evidence gives a healthy verdict that names every rule and the number that kept it from firing', (t) => {
  const v = decide(evidence())
  t.assert.strictEqual(v.id, 'healthy')
  t.assert.strictEqual(v.mixed, false)
  t.assert.match(v.lines[0], /^verdict: healthy$/)
  t.assert.match(v.lines.join('\n'), /not GC pressure: GC pauses, share of wall time 5 % < 20 %/)
  t.assert.match(
    v.lines[1],
    /^ {2}not loop blocked by synchronous work: event-loop utilisation 60 % < 90 %, typical stall/,
  )
  t.assert.match(
    v.lines[2],
    /^ {2}not loop blocked by synchronous I\/O: busy CPU under a synchronous I\/O call 0 % < 40 %$/,
  )
})

test('each rule fires on its own evidence, with its numbers against its thresholds and where the time goes', (t) => {
  const blocked = decide(evidence({ elu: 0.99, stallMs: 120 }))
  t.assert.strictEqual(blocked.id, 'blocked')
  t.assert.match(blocked.lines.join('\n'), /typical stall 120 ms >= 20 ms/)
  t.assert.match(blocked.lines.join('\n'), /hot: score \(srv\.js:3, the app's\) 90 % of busy CPU/)
  t.assert.match(blocked.lines.join('\n'), /hottest line: srv\.js:5 `x \+= Math\.sqrt\(i\)`/)
  const io = decide(evidence({ elu: 0.99, stallMs: 80, syncIoShare: 0.7 }))
  t.assert.strictEqual(io.id, 'sync-io') // and "blocked", which it refines, is not listed as well
  t.assert.deepStrictEqual(io.also, [])
  t.assert.strictEqual(decide(evidence({ elu: 0.05, latencyOverCpu: 200 })).id, 'waiting')
  t.assert.strictEqual(decide(evidence({ gcShare: 0.4 })).id, 'gc-pressure')
  const heap = { startMB: 10, endMB: 50, slopeMBps: 10, r2: 0.9, keptStartMB: 8, keptEndMB: 40, keptMBps: 8 }
  const climbing = decide(evidence({ heap }))
  t.assert.strictEqual(climbing.id, 'memory-climbing')
  t.assert.match(
    climbing.lines.join('\n'),
    /heapUsed 10 → 50 MB \(R² of the slope 0\.9\), kept after a full GC 8 → 40 MB/,
  )
  // a sawtooth of garbage: a steep slope, but a full GC leaves no more than before
  const sawtooth = { ...heap, r2: 0.5, keptEndMB: 8, keptMBps: 0 }
  t.assert.strictEqual(decide(evidence({ heap: sawtooth })).id, 'healthy')
})

test('mixed evidence says so: two rules that fire, or a reading close to its line', (t) => {
  const both = decide(evidence({ elu: 1, stallMs: 150, gcShare: 0.4 }))
  t.assert.strictEqual(both.id, 'gc-pressure')
  t.assert.strictEqual(both.mixed, true)
  t.assert.match(both.lines[0], /^verdict: GC pressure \(mixed evidence\)$/)
  t.assert.ok(both.lines.includes('also: loop blocked by synchronous work'))
  t.assert.match(both.lines.at(-1), /^mixed evidence: loop blocked by synchronous work holds too$/)
  const close = decide(evidence({ elu: 0.99, stallMs: 22 }))
  t.assert.strictEqual(close.id, 'blocked')
  t.assert.match(close.lines.at(-1), /close to the line: typical stall 22 ms >= 20 ms/)
  const nearly = decide(evidence({ gcShare: 0.18 }))
  t.assert.strictEqual(nearly.id, 'healthy')
  t.assert.match(nearly.lines.at(-1), /nearly GC pressure: GC pauses, share of wall time 18 % < 20 %/)
  // a share near 1 is compared by what is left of it: 98 % busy is not "close to" 90 %
  t.assert.strictEqual(decide(evidence({ elu: 0.98, stallMs: 120 })).mixed, false)
  t.assert.strictEqual(checkText(close.findings[3].checks[0]), 'event-loop utilisation 99 % >= 90 %')
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

// --- six ordinary servers under load: each diagnosis must tell its kind of trouble

const diagnosed = (file, opts) => wb.diagnose(server(file), { ...SHORT, ...opts })
const names = (hot) => hot.map((h) => `${h.name} ${h.file}`).join('; ')

test('a synchronous CPU hog: blocked, and the hottest frame is its own loop, with file and line', async (t) => {
  const d = await diagnosed('cpu-hog.js')
  t.assert.strictEqual(d.verdict.id, 'blocked', d.text)
  t.assert.ok(d.evidence.stallMs >= T.BLOCKED_STALL_MS, d.text) // measured 40-136 ms
  t.assert.match(names(d.evidence.hot.slice(0, 1)), /^score tests\/fixtures\/servers\/cpu-hog\.js$/, d.text)
  t.assert.strictEqual(d.evidence.hot[0].category, 'user')
  t.assert.ok(d.evidence.hot[0].attributedShare > 0.5, d.text) // measured 0.95-0.98
  t.assert.match(d.text, /hottest line: tests\/fixtures\/servers\/cpu-hog\.js:\d+ `/)
  t.assert.ok(d.evidence.gcShare < 0.1, d.text) // measured under 0.01
})

test('synchronous file I/O: blocked by synchronous I/O, under fs.readFileSync, called from the app', async (t) => {
  const d = await diagnosed('sync-file-io.js')
  t.assert.strictEqual(d.verdict.id, 'sync-io', d.text)
  t.assert.ok(d.evidence.syncIoShare > 0.4, d.text) // measured 0.66-0.75
  t.assert.match(d.text, /under readFileSync \(node:fs:\d+, Node's\)/)
  t.assert.match(d.text, /called from lastLine \(tests\/fixtures\/servers\/sync-file-io\.js:\d+, the app's\)/)
})

test('slow async waits: waiting, mostly idle, latency far above the CPU a request costs', async (t) => {
  const d = await diagnosed('slow-waits.mjs')
  t.assert.strictEqual(d.verdict.id, 'waiting', d.text)
  t.assert.ok(d.evidence.elu < 0.3, d.text) // measured 0.04-0.08
  t.assert.ok(d.evidence.latencyP50Ms >= 40, d.text) // its 40 ms timer
  t.assert.ok(d.evidence.latencyOverCpu > 40, d.text) // measured 120-315x
})

test('heavy allocation: GC pressure, with the allocation site named', async (t) => {
  const d = await diagnosed('heavy-allocation.js')
  t.assert.strictEqual(d.verdict.id, 'gc-pressure', d.text)
  t.assert.ok(d.evidence.gcShare >= T.GC_SHARE, d.text) // measured 0.33-0.74
  t.assert.match(
    names(d.evidence.allocationSites.slice(0, 1)),
    /^report tests\/fixtures\/servers\/heavy-allocation\.js$/,
  )
  t.assert.ok(d.evidence.allocationSites[0].attributedShare > 0.5, d.text) // measured 0.92-1
  t.assert.ok(Math.abs(d.evidence.heap.keptMBps) < 1, d.text) // garbage, however steep its sawtooth: -0.15-0
  // the allocating work also holds the loop: said, as mixed evidence, not hidden
  t.assert.ok(
    d.verdict.also.every((f) => f.id === 'blocked'),
    d.text,
  )
})

test('a growing cache: memory climbing, with the heap slope and the heap a full GC leaves growing', async (t) => {
  const d = await diagnosed('growing-cache.js')
  t.assert.strictEqual(d.verdict.id, 'memory-climbing', d.text)
  t.assert.ok(d.evidence.heap.slopeMBps > 3, d.text) // measured 6.6-29 MB/s
  t.assert.ok(d.evidence.heap.keptMBps > 3, d.text) // measured 19-26 MB/s
  t.assert.ok(d.evidence.heap.keptEndMB > d.evidence.heap.keptStartMB + 10, d.text)
  t.assert.match(names(d.evidence.allocationSites), /growing-cache\.js/)
})

test('a healthy server, diagnosed from the command line: healthy, the report written, the time it took', async (t) => {
  const run = promisify(execFile)
  const { stdout } = await run(process.execPath, ['scripts/diagnose.js', server('healthy.js')], {
    cwd: root,
    env: { ...process.env, WORKBOOK_PROFILE: 'quick' },
  })
  t.assert.match(stdout, /^verdict: healthy$/m)
  t.assert.match(stdout, /^ {2}not GC pressure: GC pauses, share of wall time \d+(\.\d)? % < 20 %$/m)
  const report = /^report: (.+\.html)$/m.exec(stdout)?.[1]
  t.assert.ok(report, stdout)
  const html = fs.readFileSync(path.resolve(root, report), 'utf8')
  t.assert.match(html, /<pre>verdict: healthy\n/)
  t.assert.ok((html.match(/<svg/g) ?? []).length >= 4, 'four charts inline')
  // nothing from elsewhere: no script, no stylesheet, image or font fetched
  t.assert.deepStrictEqual(html.match(/<script|<link|<img|url\(|@import|src=/g), null)
  t.assert.match(stdout, /^took \d+\.\d s$/m)
})

test('make diagnose without APP fails with its usage, before setting anything up', (t) => {
  const r = require('node:child_process').spawnSync('make', ['--no-print-directory', 'diagnose'], {
    cwd: root,
    encoding: 'utf8',
  })
  t.assert.notStrictEqual(r.status, 0)
  t.assert.match(r.stderr, /usage: make diagnose APP=path\/to\/server\.js \[ROUTE=\/path\]/)
})
