'use strict'
// Every published figure a notebook uses, against the studies themselves (shared/seeds/, checked figure by
// figure; shared/BRIEF.md summarises them, its section 8 correcting the earlier ones). The expected values
// are typed here from the studies, never read from harness/src, so that a wrong digit in published/*.ts
// fails this test.
const { test } = require('node:test')

const { published } = require('@workbook/harness')
const { osgood: publishedOsgood, swiftNode: publishedSwiftNode, elysiaEncore: publishedElysiaEncore } = published
const { etag: publishedEtag, frameworks2022: published2022 } = published
// A table one notebook alone quotes lives beside it (notebooks/NN-name.ts).
const { publishedFastifyBenchmarks } = require('../../notebooks/03-frameworks.ts')
const { publishedThreading } = require('../../notebooks/07-every-core.ts')

const close = (t, actual, expected, digits, what) =>
  t.assert.strictEqual(actual.toFixed(digits), expected.toFixed(digits), `${what}: ${actual}`)

test("Osgood's wrk output, row by row as the post prints it (brief section 8)", (t) => {
  t.assert.strictEqual(publishedOsgood.command, 'wrk -d 60 -c 10 http://localhost:3000/hello')
  t.assert.strictEqual(publishedOsgood.generator, 'wrk 4.0.0 [epoll]')
  // no -t: wrk's default 2 threads, 5 connections each
  t.assert.deepStrictEqual([publishedOsgood.connections, publishedOsgood.threads], [10, 2])
  t.assert.strictEqual(publishedOsgood.durationSeconds, 60)
  // latency Avg / Stdev / Max (ms) / +-Stdev (%); Req/Sec per thread Avg / Stdev / Max / +-Stdev; Requests/sec
  const expected = {
    'osgood 0.1.0': [3.26, 9.91, 123.57, 92.77, 12_690, 2_910, 16_980, 73.83, 25_261.7],
    'osgood 0.2.1': [0.14086, 0.2194, 15.27, 97.41, 38_920, 2_300, 45_890, 71.38, 77_449.91],
    'node v12.7.0': [0.32169, 0.09695, 11.08, 98.41, 15_660, 1_180, 17_500, 76.54, 31_159.16],
  }
  t.assert.deepStrictEqual(
    publishedOsgood.rows.map((r) => r.version),
    Object.keys(expected),
  )
  for (const r of publishedOsgood.rows) {
    const { latency: l, perThread: p } = r
    t.assert.deepStrictEqual(
      [l.meanMs, l.stdevMs, l.maxMs, l.withinStdevPct, p.mean, p.stdev, p.max, p.withinStdevPct, r.reqPerSec],
      expected[r.version],
      r.version,
    )
  }
})

test("Little's law on Osgood's rows: 10 / req/s against the printed mean (brief section 8)", (t) => {
  const little = (label) => {
    const r = publishedOsgood.rows.find((x) => x.label === label)
    return { law: (1000 * publishedOsgood.connections) / r.reqPerSec, printed: r.latency.meanMs }
  }
  const v01 = little('Osgood 0.1')
  close(t, v01.law, 0.4, 2, 'Osgood 0.1 by Little')
  t.assert.strictEqual(Math.round(v01.printed / v01.law), 8)
  close(t, little('Osgood 0.2').law, 0.129, 3, 'Osgood 0.2 by Little')
  close(t, little('Osgood 0.2').printed, 0.141, 3, 'Osgood 0.2 printed')
  close(t, little('Node 12.7').law, 0.321, 3, 'Node 12.7 by Little')
  close(t, little('Node 12.7').printed, 0.322, 3, 'Node 12.7 printed')
})

test('the Swift-vs-Node study: four kinds of test in its order, its commands as printed, where wrk ran, the machine', (t) => {
  const byKind = Object.fromEntries(publishedSwiftNode.tests.map((x) => [x.kind, x]))
  t.assert.deepStrictEqual(Object.keys(byKind), ['build', 'memory', 'threads', 'routes'])
  // the build test: timed with `time swift build`, after each of two cleans, on the author's laptop
  t.assert.deepStrictEqual(byKind.build.commands, [
    'swift build --clean=dist',
    'time swift build',
    'swift build --clean',
    'time swift build',
  ])
  t.assert.deepStrictEqual(byKind.build.loads, [])
  t.assert.match(byKind.build.generatorRan, /2015 MacBook Pro/)
  t.assert.match(byKind.build.here, /no Swift toolchain/)
  // the routes' commands name the Mac mini's address over the bridge, as the study printed them
  t.assert.deepStrictEqual(
    byKind.routes.loads.map((l) => l.command),
    [
      'wrk -d 10m -t 4 -c 20 http://169.254.237.101:(PORT)/blog',
      'wrk -d 10m -t 4 -c 20 http://169.254.237.101:(PORT)/json',
    ],
  )
  t.assert.deepStrictEqual(
    byKind.routes.loads.map((l) => [l.durationSeconds, l.threads, l.connections, l.path, l.generatorOnServer]),
    [
      [600, 4, 20, '/blog', false],
      [600, 4, 20, '/json', false],
    ],
  )
  t.assert.strictEqual(byKind.routes.generatorOnServer, false)
  t.assert.match(byKind.routes.generatorRan, /second machine \(a 2015 MacBook Pro\).*Thunderbolt 2/)
  t.assert.deepStrictEqual(
    byKind.memory.loads.map((l) => [l.command, l.path, l.generatorOnServer]),
    [
      ['wrk -d 1m -t 4 -c 10', null, null],
      ['wrk -d 1m -t 8 -c 100', null, null],
    ],
  )
  t.assert.match(byKind.memory.measured, /start-up.*peak.*Activity Monitor/)
  t.assert.deepStrictEqual(
    byKind.threads.loads.map((l) => l.command),
    ['wrk -d 1m -t 4 -c 10'],
  )
  t.assert.deepStrictEqual(
    publishedSwiftNode.routes.map((r) => [r.path, r.herePath]),
    [
      ['/blog', '/blog'],
      ['/json', '/random'],
    ],
  )
  t.assert.match(publishedSwiftNode.machine, /2012 Mac mini.*OS X El Capitan 10\.11\.6.*Xcode 8 beta 6/)
  t.assert.match(publishedSwiftNode.builds, /release mode.*debug build.*2016-09-01.*swift build -c release/)
  // its method in the workbook's words, not its sentence
  t.assert.match(publishedSwiftNode.method[0], /10 minutes/)
  t.assert.doesNotMatch(publishedSwiftNode.method.join(' '), /4 seconds is not a test/)
  t.assert.match(publishedSwiftNode.method[1], /4 threads each making 20 connections.*5 each/)
  t.assert.strictEqual(publishedSwiftNode.finding, 'Node came last or second to last in every test.')
  t.assert.match(publishedSwiftNode.funding, /PerfectlySoft funded.*Perfect and Vapor teams.*employed by neither/)
  const threads = Object.fromEntries(publishedSwiftNode.servers.map((s) => [s.server, s.threads]))
  t.assert.match(threads.Zewo, /single-threaded.*once per CPU/)
  t.assert.match(threads.Perfect, /every available CPU/)
  t.assert.match(threads.Vapor, /one thread model per CPU/)
})

test("the Elysia post's three changes, its commands and its ratios from its own figures (brief sections 7, 8)", (t) => {
  const EE = publishedElysiaEncore
  const rows = Object.fromEntries(EE.rows.map((r) => [r.label, [r.bare, r.validated]]))
  t.assert.deepStrictEqual(rows, { Elysia: [293_991, 223_924], 'Encore.ts': [139_033, 95_854] })
  close(t, EE.headline.bare, 2.11, 2, 'bare')
  close(t, EE.headline.validated, 2.34, 2, 'validated')
  t.assert.deepStrictEqual([EE.connections, EE.upstreamConnections], [450, 150])
  t.assert.strictEqual(EE.changes.length, 3)
  t.assert.match(EE.changes[0], /bun build --compile/)
  t.assert.match(EE.changes[1], /static resource/)
  t.assert.match(EE.changes[2], /150 to 450/)
  t.assert.strictEqual(EE.commands.bare, 'PORT=3000 oha -c 450 -z 10s -m GET "http://127.0.0.1:$PORT/hello"')
  t.assert.strictEqual(EE.commands.upstream, 'PORT=3000 oha -c 150 -z 10s -m GET "http://127.0.0.1:$PORT/hello"')
  t.assert.match(EE.commands.validated, /^PORT=3000 oha -c 450 -z 10s -m POST .*-H 'x-foo: test' /)
  t.assert.match(EE.commands.validated, /"http:\/\/127\.0\.0\.1:\$PORT\/schema\?name=test&excitement=123"/)
  // the body the command sends is the one notebook 03 sends
  const body = JSON.parse(EE.commands.validated.match(/-d '(.*)'$/)[1])
  t.assert.deepStrictEqual(body, EE.validatedRequest.body)
  t.assert.deepStrictEqual(body, {
    someKey: 'test',
    someOtherKey: 123,
    requiredKey: [123, 456, 789],
    nullableKey: null,
    multipleTypesKey: true,
    multipleRestrictedTypesKey: 'test',
    enumKey: 'John',
  })
  t.assert.strictEqual(EE.validatedRequest.path, '/schema?name=test&excitement=123')
  t.assert.strictEqual(EE.elysiaRoute, '/hello/:par1/:par2')
  // the post's machine as it gives it: a CPU model, its memory, the OS; no cores or threads of its own
  t.assert.match(EE.machine, /i7-13700K, 32 GB of DDR5-5600 memory.*Debian 11.*WSL2/)
  t.assert.doesNotMatch(EE.machine, /cores|threads/)
  t.assert.strictEqual(EE.date, '2025-11-14')
  t.assert.deepStrictEqual(EE.versions, { Elysia: '1.4.16', Bun: '1.3.2', Encore: '1.5.17', Rust: '1.91.1' })
  // what the post does not print is marked as the repositories'
  t.assert.match(EE.source, /The post prints no command/)
  t.assert.ok(EE.fromRepository.some((f) => /oha commands/.test(f)))
  t.assert.ok(EE.fromRepository.some((f) => /best of five.*upstream benchmark's README/.test(f)))
  t.assert.ok(EE.fromRepository.some((f) => /\/schema/.test(f)))
  t.assert.strictEqual(EE.loads.bare.command, EE.commands.bare)
  t.assert.strictEqual(EE.loads.validated.command, EE.commands.validated)
  t.assert.match(EE.loads.bare.note, /the post prints none/)
})

test('"Keeping Node.js Fast": its rows, its commands, its cost argument in its terms, its yardsticks and doctor\'s 103 handles', (t) => {
  t.assert.deepStrictEqual(
    publishedEtag.rows.map((r) => [r.step, r.connections, r.reqPerSec, r.meanLatencyMs]),
    [
      ['slow', 100, 23.1, 3086.81],
      ['fixed', 100, 5011.11, 19.47],
      ['optimised', 10, 8330.91, 0.64],
    ],
  )
  // the command it prints (twice), and the optimised row's caption written out, marked so
  t.assert.deepStrictEqual(
    publishedEtag.rows.map((r) => [r.load.command, r.load.printed ?? true]),
    [
      ['autocannon -c100 localhost:3000/seed/v1', true],
      ['autocannon -c100 localhost:3000/seed/v1', true],
      ['autocannon -c10 localhost:3000/seed/v1', false],
    ],
  )
  // the cost argument: a warning about effort against gain, developer time against server cost, a
  // target first; not a rule to find the 20 % of the work that gives 80 % of the gain
  t.assert.match(publishedEtag.cost.argument, /warning/)
  t.assert.match(publishedEtag.cost.argument, /servers against what the work costs in developer time/)
  t.assert.match(publishedEtag.cost.argument, /target first/)
  t.assert.doesNotMatch(publishedEtag.cost.argument, /20 % of the work that gives 80 %/)
  t.assert.strictEqual(publishedEtag.cost.rule, undefined)
  t.assert.deepStrictEqual(
    publishedEtag.cost.targets.map((x) => [x.kind, x.value]),
    [
      ['times', 10],
      ['reqPerSec', 4000],
      ['times', 2],
    ],
  )
  t.assert.match(publishedEtag.cost.targets[2].text, /servers cost twice the budget/)
  // no machine the article does not give; autocannon ran beside the server, from a second terminal
  t.assert.doesNotMatch(publishedEtag.machine, /laptop|2018/)
  t.assert.match(publishedEtag.machine, /^not given/)
  t.assert.match(publishedEtag.generatorRan, /one terminal, autocannon against localhost in a second/)
  t.assert.strictEqual(publishedEtag.rows[0].load.generatorOnServer, true)
  t.assert.deepStrictEqual(publishedEtag.rows[0].load.versions, { Node: '8.11.2 or later', restify: '7.1.0' })
  t.assert.strictEqual(publishedEtag.helloWorldReqPerSec, 30_000)
  t.assert.strictEqual(publishedEtag.listenerShareAfterFix, 1 / 3)
  t.assert.strictEqual(publishedEtag.fastifyOverRestify, 1.17)
  // its timer: 100 ms, 10^7 Math.random() calls, 150-250 ms, reasoned as 100 + 100 = 200
  t.assert.deepStrictEqual(publishedEtag.timer, {
    delayMs: 100,
    loopSize: 1e7,
    rangeMs: [150, 250],
    reasoned: { loopMs: 100, firesAtMs: 200 },
  })
  const { doctor } = publishedEtag
  t.assert.strictEqual(doctor.activeHandles, 103)
  t.assert.deepStrictEqual(
    doctor.parts.map((p) => [p.what, p.count]),
    [
      ['connections', 100],
      ['stdout', 1],
      ['stderr', 1],
      ['the server', 1],
    ],
  )
  t.assert.strictEqual(
    doctor.parts.reduce((a, p) => a + p.count, 0),
    doctor.activeHandles,
  )
  t.assert.match(doctor.cpuNote, /GC|garbage-collection/)
})

test('every claim of every study is tested somewhere or says why not, and each study names its loads', (t) => {
  const studies = ['etag', 'frameworks2022', 'osgood', 'swiftNode', 'elysiaEncore']
  t.assert.deepStrictEqual(
    Object.keys(published).filter((k) => typeof published[k] !== 'function'),
    studies,
  )
  for (const name of studies.filter((n) => published[n].claims)) {
    for (const c of published[name].claims) {
      t.assert.ok(c.claim.length > 10, `${name}: ${JSON.stringify(c)}`)
      t.assert.ok(c.testedIn === null ? c.because?.length > 10 : c.testedIn.length > 5, `${name}: ${c.claim}`)
    }
  }
  t.assert.deepStrictEqual(
    studies.filter((n) => !published[n].claims),
    ['frameworks2022'],
    'the 2022 post makes no claim beyond its table',
  )
  // the claims the issue names: Osgood's concurrency and its maximum, the article's timer and yardsticks
  const said = (name, re) => published[name].claims.some((c) => re.test(c.claim))
  t.assert.ok(said('osgood', /concurrency rose/) && said('osgood', /maximum is higher.*garbage collection/))
  t.assert.ok(said('osgood', /auto-scaling workers.*2\.5x/))
  t.assert.ok(said('etag', /100 \+ 100 = 200/) && said('etag', /Hello World/) && said('etag', /17 %/))
  const untested = published.etag.claims.filter((c) => c.testedIn === null).map((c) => c.claim)
  t.assert.ok(
    untested.some((c) => /pino/.test(c)),
    untested.join('; '),
  )
})

test("the framework tables' figures and commands (brief sections 3, 7)", (t) => {
  t.assert.strictEqual(published2022.command, 'wrk -t12 -c500 -d5m --latency')
  t.assert.strictEqual(published2022.load.command, 'wrk -t 12 -c 500 http://127.0.0.1:8080 -d 5m --latency')
  t.assert.match(published2022.generatorRan, /the machine it measured.*127\.0\.0\.1/)
  t.assert.strictEqual(published2022.runtime, 'Node v16.14.0')
  t.assert.deepStrictEqual(
    published2022.rows.map((r) => [r.label, r.version]),
    [
      ['http', null],
      ['trek-engine', '1.0.5'],
      ['micro', '9.3.4'],
      ['fastify', '3.28.0'],
      ['koa', '2.13.4'],
      ['express', '4.17.3'],
      ['egg', '2.35.0'],
    ],
  )
  // the table as printed: req/s, transfer MB/s, latency ms, memory MB (micro's empty)
  t.assert.deepStrictEqual(
    published2022.rows.map((r) => [r.table.reqPerSec, r.table.transferMB, r.table.latencyMs, r.table.memoryMB]),
    [
      [39_006.28, 6.66, 6.18, 37],
      [36_036.96, 4.61, 6.69, 39],
      [34_085.83, 6.66, 6.18, null],
      [31_469.97, 5.25, 7.66, 47],
      [30_671.38, 5.12, 7.85, 41],
      [9_929.53, 2.25, 24.26, 43],
      [13_294.07, 2.25, 18.12, 60],
    ],
  )
  // each wrk output: Requests/sec, Transfer/sec, latency avg / stdev / max, p99, requests, socket errors
  t.assert.deepStrictEqual(
    published2022.rows.map((r) => {
      const w = r.wrk
      const e = w.socketErrors
      return [
        w.reqPerSec,
        w.transferMB,
        w.latency.meanMs,
        w.latency.stdevMs,
        w.latency.maxMs,
        w.percentilesMs.p99,
        w.requests,
        [e.connect, e.read, e.write, e.timeout],
      ]
    }),
    [
      [39_006.28, 6.66, 6.18, 0.69089, 60.98, 7.79, 11_706_391, [251, 190, 0, 0]],
      [36_036.96, 4.61, 6.69, 0.79496, 76.35, 8.55, 10_808_960, [251, 150, 0, 241]],
      [34_085.83, 4.36, 7.07, 0.64919, 50.83, 9.15, 10_228_556, [251, 212, 0, 0]],
      [31_469.97, 5.25, 7.66, 0.82816, 75.68, 9.71, 9_443_512, [251, 162, 0, 0]],
      [30_671.38, 5.12, 7.85, 0.66755, 30.75, 10.03, 9_204_206, [251, 94, 0, 0]],
      [9_929.53, 2.25, 24.26, 2.29, 116.6, 32.46, 2_979_733, [251, 234, 0, 0]],
      [13_294.07, 4.68, 18.12, 1.53, 122.37, 23.2, 3_989_788, [251, 216, 0, 0]],
    ],
  )
  t.assert.deepStrictEqual([published2022.connections, published2022.connectErrors], [500, 251])
  t.assert.deepStrictEqual(
    published2022.rows.map((r) => [r.label, r.reqPerSec]),
    [
      ['http', 39_006],
      ['trek-engine', 36_037],
      ['micro', 34_086],
      ['fastify', 31_470],
      ['koa', 30_671],
      ['express', 9_930],
      ['egg', 13_294],
    ],
  )
  t.assert.strictEqual(published2022.rows[0].meanLatencyMs, 6.18)
  t.assert.strictEqual(publishedFastifyBenchmarks.command, 'autocannon -c 100 -d 40 -p 10')
  t.assert.deepStrictEqual(
    publishedFastifyBenchmarks.rows.map((r) => [r.label, r.reqPerSec]),
    [
      ['0http', 54_501],
      ['node-http', 47_917],
      ['micro', 47_431],
      ['fastify', 46_850],
      ['hono', 40_188],
      ['koa', 35_724],
      ['express', 27_794],
      ['restify', null],
    ],
  )
})

test('where each study ran its load generator, for notebook 07 (brief sections 3, 7, 8)', (t) => {
  const ran = Object.fromEntries(publishedThreading.map((r) => [r.server, [r.generatorOnServer, r.machine]]))
  // The Swift study's routes: wrk on a second machine; Osgood's command loads localhost; oha loads 127.0.0.1.
  t.assert.strictEqual(ran.Perfect[0], false)
  t.assert.match(ran.Perfect[1], /2012 Mac mini/)
  t.assert.strictEqual(ran.Zewo[0], false)
  t.assert.strictEqual(ran.Osgood[0], true)
  t.assert.strictEqual(ran['Elysia on Bun'][0], true)
  t.assert.match(ran['Elysia on Bun'][1], /i7-13700K/)
  t.assert.strictEqual(publishedFastifyBenchmarks.generatorRan, 'on the machine it measured')
  for (const r of publishedThreading) t.assert.ok(r.generatorRan.length > 0, r.server)
})
