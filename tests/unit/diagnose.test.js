'use strict'
// The diagnosis (tools/src/diagnose): its rules on made-up evidence, the way it cuts the watched
// seconds, and make diagnose's usage. The fixture servers diagnosed live are integration tests
// (tests/integration/diagnose.test.js, make test-integration).
const { test } = require('node:test')
const path = require('node:path')

const { internal, tool } = require('./helpers')
const { decide } = tool('diagnose/verdict')
const { checkText } = tool('diagnose/checks')

const root = path.join(__dirname, '..', '..')

// --- the rules, on evidence made up to sit where each rule should fire (diagnose-evidence.js)
const { SHARES, points, THREADS, evidence, LINES, judge, only } = require('./diagnose-evidence')

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
  t.assert.match(
    v.lines.join('\n'),
    /not busy off the main thread: share of the app's CPU off its main thread \(V8's helpers aside\) 0 % < 50 %/,
  )
  t.assert.match(
    v.lines.join('\n'),
    /not memory climbing: growth of the (heap|memory outside the heap) kept after a full GC, of the memory kept [\d.]+ % a second < 2 % a second .*kept after a full GC: the heap 6 → 6\.65 MB/,
  )
})

test("a saturated loop busy with Node's own request handling is healthy too: busy is not blocked", (t) => {
  const v = judge({ elu: 0.99 })
  t.assert.strictEqual(v.id, 'healthy')
  t.assert.strictEqual(v.busiest, 'node')
  t.assert.match(
    v.lines[1],
    /the loop is busy with Node's own request handling, the work a fast server is for: event-loop utilisation 99 % >= 90 %/,
  )
})

test("a healthy verdict's every sentence is worded for a healthy loop: no stall or queue described as a problem", (t) => {
  // a busy loop of short turns, requests 8x their CPU: 10 connections taking turns, not a blocked loop
  for (const v of [judge({ elu: 0.99, stallMs: 2, latencyOverCpu: 8 }), judge({ elu: 0.6, stallMs: 2 })]) {
    const text = v.lines.join('\n')
    t.assert.strictEqual(v.id, 'healthy', text)
    t.assert.doesNotMatch(text, /hardly ever free|requests queue|many short stalls|long stalls|blocked/, text)
  }
  const busy = judge({ elu: 0.99, stallMs: 2, latencyOverCpu: 8 }).lines.join('\n')
  t.assert.match(busy, /no long stall: the loop was held up 2 ms at a time \(typical\), 12 ms at most/)
  t.assert.match(
    busy,
    /a request took 2 ms at p50, 8\.00x the 0\.2 ms of CPU it costs: the load's connections take turns/,
  )
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

test('a regular expression is named with its pattern, on the line that ran it, or that line alone when it runs several', (t) => {
  const caller = { name: 'validate', file: 'srv.js', line: 10, category: 'user' }
  const line = { file: 'srv.js', line: 12, text: 'const ok = username.test(s)' }
  const run = { pattern: '^([a-z0-9]+)+$', candidates: ['^([a-z0-9]+)+$'], share: 0.95, from: 'line', caller, line }
  const named = judge({ elu: 1, stallMs: 60, busy: { shares: only('regex', 0.95), busySamples: 900, regex: run } })
  t.assert.deepStrictEqual([named.id, named.cause], ['blocked', 'regex'])
  t.assert.match(
    named.lines.join('\n'),
    /the regular expression \/\^\(\[a-z0-9\]\+\)\+\$\/ ran 95 % of the busy time, on srv\.js:12 `const ok = username\.test\(s\)` \(in validate\)/,
  )
  // V8's own frame names it wherever it was compiled
  const frame = { ...run, from: 'frame', line: null }
  const v8 = judge({ elu: 1, busy: { shares: only('regex', 0.95), busySamples: 900, regex: frame } })
  t.assert.match(
    v8.lines.join('\n'),
    /\/\^\(\[a-z0-9\]\+\)\+\$\/ ran 95 % of the busy time \(V8's own frame\), run by validate \(srv\.js:10\)/,
  )
  // two candidates on the line: the line is named, the pattern is not guessed
  const both = {
    ...run,
    pattern: null,
    candidates: ['^a+$', '[^A-Za-z0-9]'],
    line: { ...line, text: 'a.test(s) || b.test(s)' },
  }
  const v = judge({ elu: 1, busy: { shares: only('regex', 0.95), busySamples: 900, regex: both } })
  t.assert.match(
    v.lines.join('\n'),
    /a regular expression ran 95 % of the busy time, on srv\.js:12 `a\.test\(s\) \|\| b\.test\(s\)` \(in validate\): which one could not be told \(the line may run \/\^a\+\$\/ or \/\[\^A-Za-z0-9\]\/\)/,
  )
  t.assert.doesNotMatch(v.lines.join('\n'), /the regular expression \//)
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
  t.assert.match(
    v.lines[1],
    /garbage collection under 34 % of it and share of busy time in the app's own code 10 % < 13 %/,
  )
})

test("a saturated loop busy with the web framework's handling is healthy; a library the app calls still blocks it", (t) => {
  // express's own code and its router: request handling, like Node's (busy.ts, FRAMEWORKS)
  const express = judge({ elu: 1, shares: { ...SHARES, gc: 0.03, app: 0.05, framework: 0.26, node: 0.66 } })
  t.assert.deepStrictEqual([express.id, express.busiest], ['healthy', 'node'])
  t.assert.match(express.lines.join('\n'), /the web framework's request handling 26 %/)
  // the same share in a library the app's handler calls (Ajv compiling per request) blocks the loop
  const ajv = judge({ elu: 1, shares: { ...SHARES, gc: 0.03, app: 0.05, dependency: 0.26, node: 0.66 } })
  t.assert.deepStrictEqual([ajv.id, ajv.cause], ['blocked', 'dependency'])
})

test('waiting: a loop with headroom, and a request far slower than the CPU it costs', (t) => {
  t.assert.strictEqual(judge({ elu: 0.05, latencyOverCpu: 200 }).id, 'waiting')
  t.assert.strictEqual(judge({ elu: 0.05, latencyOverCpu: 5 }).id, 'healthy')
  // a saturated loop is never "waiting", however slow its requests
  t.assert.notStrictEqual(judge({ elu: 0.99, latencyOverCpu: 200, shares: only('app') }).id, 'waiting')
})

test('memory climbing: the heap, or the memory outside it, that full collections leave growing in a line', (t) => {
  const heap = { memory: { points: points([8, 20, 21, 24, 27, 30]) } }
  const climbing = judge(heap)
  const text = climbing.lines.join('\n')
  t.assert.deepStrictEqual([climbing.id, climbing.memory], ['memory-climbing', 'climbing'], text)
  t.assert.match(
    text,
    /growth of the heap kept after a full GC, of the memory kept 3\d(\.\d)? % a second >= 2 % a second/,
  )
  t.assert.match(
    text,
    /the heap kept grows in a line: 2\.\d+ MB\/s \([\d.]+ to [\d.]+, 95 %\), about [\d.]+ KB a request/,
  )
  t.assert.match(
    text,
    /kept after a full GC: the heap 8 → 30 MB, outside the heap \(Buffers\.\.\.\) 1 → 1 MB, over 7\.50 s and 6 full collections/,
  )
  const buffers = judge({ memory: { points: points([6, 6, 6.5, 6.5, 6.5, 6.5], [3, 60, 75, 90, 105, 120]) } })
  t.assert.strictEqual(buffers.id, 'memory-climbing')
  t.assert.match(
    buffers.lines.join('\n'),
    /growth of the memory outside the heap kept after a full GC, of the memory kept/,
  )
  // a leak on a saturated loop: memory first, the loop's verdict beside it, and the evidence mixed
  const both = judge({ ...heap, elu: 1, shares: only('app') })
  t.assert.strictEqual(both.id, 'memory-climbing')
  t.assert.ok(both.lines.includes("also: loop blocked by the app's own code"), both.lines.join('\n'))
  t.assert.match(both.lines.at(-1), /^mixed evidence: loop blocked by the app's own code holds too$/)
})

test('a large heap loaded at start that does not grow is healthy, and the verdict says how large it is', (t) => {
  const v = judge({ memory: { points: points([321, 321.4, 322, 322.2, 322.3, 322.35]) } })
  const text = v.lines.join('\n')
  t.assert.deepStrictEqual([v.id, v.memory], ['healthy', 'flat'], text)
  t.assert.match(text, /not memory climbing: .* 0\.0\d+ % a second < 2 % a second/)
  t.assert.match(text, /a large heap, 322 MB, that does not grow: not a leak/)
  // the same growth, 1.3 MB in 7.5 s, on a heap of 6 MB: 2.9 % a second, climbing
  t.assert.strictEqual(
    judge({ memory: { points: points([6, 6.4, 7, 7.2, 7.3, 7.35].map((h, i) => h + i * 0.2)) } }).id,
    'memory-climbing',
  )
})

test('memory undecided: a trend whose interval straddles the line says so, and how long to watch', (t) => {
  const noisy = points([6, 6.5, 7.1, 6.4, 7.3, 6.6])
  const v = decide(evidence({ memory: { points: noisy } }), LINES, {
    rerun: (s) => `make diagnose APP=srv.js WATCH=${s}`,
  })
  const text = v.lines.join('\n')
  t.assert.deepStrictEqual([v.id, v.memory], ['healthy', 'undecided'], text)
  t.assert.match(v.lines[0], /^verdict: healthy; memory undecided/)
  t.assert.match(text, /memory undecided: the heap kept grows .* either side of the 2 % a second line/)
  t.assert.match(text, /watch longer: make diagnose APP=srv\.js WATCH=\d+/)
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
  const { check } = tool('diagnose/checks')
  t.assert.strictEqual(checkText(check('busy', 0.8962, '>=', 0.9, 'share')), 'busy 89.6 % < 90 %')
  t.assert.strictEqual(checkText(check('ratio', 19.98, '>=', 20, 'x')), 'ratio 19.98x < 20.0x')
  t.assert.strictEqual(checkText(check('stall', 20, '>=', 20, 'ms')), 'stall 20 ms >= 20 ms')
})

test("CPU off the main thread: work on libuv's pool is never healthy or waiting; the verdict names the pool and what to do", (t) => {
  const pool = {
    ...THREADS,
    mainCpuPercent: 11,
    offMainCpuPercent: 88,
    byKind: { main: 11, pool: 86, workers: 0, v8: 2, other: 0 },
    poolThreads: 4,
  }
  const handoff = {
    to: 'pool',
    call: { name: 'pbkdf2', file: 'node:internal/crypto/pbkdf2', line: 34, category: 'node' },
    caller: { name: 'work', file: 'srv.js', line: 24, category: 'user' },
    samples: 12,
  }
  // a loop with headroom and requests 10x their CPU: "waiting" without the threads' figures
  const v = judge({ elu: 0.35, cpuPercent: 99, latencyOverCpu: 30, threads: pool, handoff })
  const text = v.lines.join('\n')
  t.assert.deepStrictEqual([v.id, v.cause], ['off-main-thread', 'pool'], text)
  t.assert.strictEqual(v.lines[0], "verdict: busy off the main thread: libuv's thread pool")
  t.assert.match(text, /share of the app's CPU off its main thread \(V8's helpers aside\) 87 % >= 50 %/)
  t.assert.match(
    text,
    /the main thread 11 %, libuv's thread pool 86 % \(4 threads; UV_THREADPOOL_SIZE unset: libuv's default 4\)/,
  )
  t.assert.match(text, /the loop has headroom: event-loop utilisation 35 %, its thread ran 11 % of a core/)
  t.assert.match(text, /handed to the pool: pbkdf2 \(node:internal\/crypto\/pbkdf2\), called from work \(srv\.js:24\)/)
  t.assert.match(
    text,
    /its 4 threads already share the 1 core the process has: a larger UV_THREADPOOL_SIZE would not help here/,
  )
  // the loop reads busy only because its thread waited for the core: still off the main thread, not healthy
  const waited = judge({
    elu: 0.95,
    threads: { ...pool, mainCpuPercent: 25, byKind: { ...pool.byKind, main: 25, pool: 55 } },
  })
  t.assert.strictEqual(waited.id, 'off-main-thread', waited.lines.join('\n'))
  t.assert.match(
    waited.lines.join('\n'),
    /the loop reads 95 % busy, but its thread ran 25 % of a core: much of that time it waited for a core/,
  )
  // more cores than pool threads: a larger pool could help
  t.assert.match(
    judge({ elu: 0.3, threads: { ...pool, cores: 8 } }).lines.join('\n'),
    /a larger UV_THREADPOOL_SIZE \(up to the 8 cores\)/,
  )
})

test('CPU off the main thread names worker threads, and says so when the platform cannot tell which', (t) => {
  const workers = { ...THREADS, mainCpuPercent: 11, byKind: { main: 11, pool: 0, workers: 87, v8: 1, other: 0 } }
  const w = judge({ elu: 0.5, threads: workers })
  t.assert.deepStrictEqual(
    [w.id, w.cause, w.title],
    ['off-main-thread', 'workers', 'busy off the main thread: worker threads'],
  )
  // no /proc: the process's CPU less the main thread's
  const unnamed = judge({
    elu: 0.3,
    cpuPercent: 99,
    threads: { ...THREADS, mainCpuPercent: 12, offMainCpuPercent: 87, byKind: null },
  })
  t.assert.deepStrictEqual(
    [unnamed.id, unnamed.cause, unnamed.title],
    ['off-main-thread', null, 'busy off the main thread'],
  )
  t.assert.match(unnamed.lines.join('\n'), /the other threads 87 % \(this platform does not name them\)/)
  // V8's helpers collecting garbage are GC's, not the app's work elsewhere
  const gc = judge({
    elu: 1,
    shares: { ...SHARES, gc: 0.45, app: 0.5, node: 0.05 },
    threads: { ...THREADS, byKind: { main: 52, pool: 0, workers: 0, v8: 47, other: 0 } },
  })
  t.assert.strictEqual(gc.id, 'gc-pressure')
  t.assert.strictEqual(gc.second?.id ?? null, 'blocked')
})

test('two problems at once: the verdict names both, each with its share, when the second reaches or nears its line', (t) => {
  const blocked = judge({ elu: 1, shares: { ...SHARES, gc: 0.31, app: 0.6, node: 0.09 } })
  t.assert.deepStrictEqual([blocked.id, blocked.cause, blocked.second?.id], ['blocked', 'app', 'gc-pressure'])
  t.assert.match(blocked.lines[0], /^verdict: loop blocked by the app's own code, and GC pressure/)
  t.assert.match(blocked.lines.join('\n'), /share of busy time in the app's own code 60 % >= 13 %/)
  t.assert.match(
    blocked.lines.join('\n'),
    /and GC pressure: share of busy time in garbage collection 31 % < 34 %, close to its line/,
  )
  // GC far under its line: one problem
  const alone = judge({ elu: 1, shares: { ...SHARES, gc: 0.05, app: 0.86, node: 0.09 } })
  t.assert.deepStrictEqual(
    [alone.id, alone.second, alone.lines[0]],
    ['blocked', null, "verdict: loop blocked by the app's own code"],
  )
  const gc = judge({ elu: 1, shares: { ...SHARES, gc: 0.45, app: 0.5, node: 0.05 } })
  t.assert.match(gc.lines[0], /^verdict: GC pressure, and loop blocked by the app's own code/)
  t.assert.match(
    gc.lines.join('\n'),
    /and loop blocked by the app's own code: share of busy time in the app's own code 50 % >= 13 %/,
  )
})

// --- the watched stretch: cut on the app's own clock, and refused when its samples are too few

const { AppChannel } = internal('apps/channel')
const { covering } = tool('diagnose/collect')
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
  t.assert.match(r.stderr, /usage: make diagnose APP=path\/to\/server\.js \[ROUTE=\/path \| ROUTES=routes\.json\]/)
})
