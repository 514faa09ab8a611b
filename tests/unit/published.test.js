'use strict'
// Every published figure a notebook uses, against the brief (shared/BRIEF.md): section 8 for the
// studies it corrects (Osgood's wrk output, the Swift-vs-Node study, the Elysia post's changes, the
// cost argument and clinic doctor's handles), sections 1, 3 and 7 for the figures section 8 leaves
// as they were. The expected values are typed here from the brief, never read from harness/src, so
// that a wrong digit in published/*.ts fails this test.
const { test } = require('node:test')

const { published } = require('@workbook/harness')
const { osgood: publishedOsgood, swiftNode: publishedSwiftNode, elysiaEncore: publishedElysiaEncore } = published
// A table one notebook alone quotes lives beside it (notebooks/NN-name.ts).
const { publishedEtag } = require('../../notebooks/01-slow-etag-server.ts')
const { published2022, publishedFastifyBenchmarks } = require('../../notebooks/03-frameworks.ts')
const { publishedThreading } = require('../../notebooks/07-every-core.ts')

const close = (t, actual, expected, digits, what) =>
  t.assert.strictEqual(actual.toFixed(digits), expected.toFixed(digits), `${what}: ${actual}`)

test("Osgood's wrk output, row by row as the post prints it (brief section 8)", (t) => {
  t.assert.strictEqual(publishedOsgood.command, 'wrk -d 60 -c 10 http://localhost:3000/hello')
  t.assert.strictEqual(publishedOsgood.generator, 'wrk 4.0.0 [epoll]')
  // no -t: wrk's default 2 threads, 5 connections each
  t.assert.deepStrictEqual([publishedOsgood.connections, publishedOsgood.threads], [10, 2])
  t.assert.strictEqual(publishedOsgood.durationSeconds, 60)
  // latency Avg / Stdev / Max (ms) / +-Stdev (%); Req/Sec per thread Avg / Stdev / Max; Requests/sec
  const expected = {
    'osgood 0.1.0': [3.26, 9.91, 123.57, 92.77, 12_690, 2_910, 16_980, 25_261.7],
    'osgood 0.2.1': [0.14086, 0.2194, 15.27, 97.41, 38_920, 2_300, 45_890, 77_449.91],
    'node v12.7.0': [0.32169, 0.09695, 11.08, 98.41, 15_660, 1_180, 17_500, 31_159.16],
  }
  t.assert.deepStrictEqual(
    publishedOsgood.rows.map((r) => r.version),
    Object.keys(expected),
  )
  for (const r of publishedOsgood.rows) {
    const { latency: l, perThread: p } = r
    t.assert.deepStrictEqual(
      [l.meanMs, l.stdevMs, l.maxMs, l.withinStdevPct, p.mean, p.stdev, p.max, r.reqPerSec],
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

test('the Swift-vs-Node study: three kinds of test, their commands, where wrk ran, the machine (brief section 8)', (t) => {
  const byKind = Object.fromEntries(publishedSwiftNode.tests.map((x) => [x.kind, x]))
  t.assert.deepStrictEqual(Object.keys(byKind), ['routes', 'memory', 'threads'])
  t.assert.deepStrictEqual(
    byKind.routes.loads.map((l) => l.command),
    ['wrk -d 10m -t 4 -c 20 http://<server>:<port>/blog', 'wrk -d 10m -t 4 -c 20 http://<server>:<port>/json'],
  )
  t.assert.deepStrictEqual(
    byKind.routes.loads.map((l) => [l.durationSeconds, l.threads, l.connections]),
    [
      [600, 4, 20],
      [600, 4, 20],
    ],
  )
  t.assert.strictEqual(byKind.routes.generatorOnServer, false)
  t.assert.match(byKind.routes.generatorRan, /second machine \(a 2015 MacBook Pro\).*Thunderbolt 2/)
  t.assert.deepStrictEqual(
    byKind.memory.loads.map((l) => l.command),
    ['wrk -d 1m -t 4 -c 10', 'wrk -d 1m -t 8 -c 100'],
  )
  t.assert.match(byKind.memory.measured, /start-up.*peak.*Activity Monitor/)
  t.assert.deepStrictEqual(
    byKind.threads.loads.map((l) => l.command),
    ['wrk -d 1m -t 4 -c 10'],
  )
  // notebook 03 runs the memory test's loads under `loads`
  t.assert.deepStrictEqual(
    publishedSwiftNode.loads.map((l) => [l.command, l.connections]),
    [
      ['wrk -d 1m -t 4 -c 10', 10],
      ['wrk -d 1m -t 8 -c 100', 100],
    ],
  )
  t.assert.match(publishedSwiftNode.machine, /2012 Mac mini.*OS X El Capitan 10\.11\.6.*Xcode 8 beta 6/)
  t.assert.match(publishedSwiftNode.builds, /release mode.*2016-09-01.*swift build -c release/)
  t.assert.deepStrictEqual(publishedSwiftNode.method, ['4 seconds is not a test, 10 minutes is reasonable'])
  t.assert.strictEqual(publishedSwiftNode.finding, 'Node came last or second to last in every test.')
  t.assert.match(publishedSwiftNode.funding, /PerfectlySoft funded.*Perfect and Vapor teams/)
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
  t.assert.match(EE.changes[1], /static response/)
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
  t.assert.match(EE.machine, /i7-13700K.*WSL2/)
})

test('"Keeping Node.js Fast": its rows, its cost argument, Fastify over restify, and doctor\'s 103 handles (brief sections 1, 8)', (t) => {
  t.assert.deepStrictEqual(
    publishedEtag.rows.map((r) => [r.step, r.connections, r.reqPerSec, r.meanLatencyMs]),
    [
      ['slow', 100, 23.1, 3086.81],
      ['fixed', 100, 5011.11, 19.47],
      ['optimised', 10, 8330.91, 0.64],
    ],
  )
  t.assert.match(publishedEtag.cost.rule, /20 % of the work that gives 80 % of the gain/)
  t.assert.deepStrictEqual(
    publishedEtag.cost.targets.map((x) => [x.kind, x.value]),
    [
      ['times', 10],
      ['reqPerSec', 4000],
      ['times', 2],
    ],
  )
  t.assert.match(publishedEtag.cost.targets[2].text, /servers cost twice the budget/)
  t.assert.strictEqual(publishedEtag.fastifyOverRestify, 1.17)
  t.assert.strictEqual(publishedEtag.logger, 'pino')
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

test("the framework tables' figures and commands (brief sections 3, 7)", (t) => {
  t.assert.strictEqual(published2022.command, 'wrk -t12 -c500 -d5m --latency')
  t.assert.deepStrictEqual([published2022.connections, published2022.connectErrors], [500, 251])
  t.assert.deepStrictEqual(
    published2022.rows.map((r) => [r.label, r.reqPerSec]),
    [
      ['http', 39_006],
      ['trek-engine', 36_037],
      ['micro', 34_086],
      ['fastify', 31_470],
      ['koa', 30_671],
      ['egg', 13_294],
      ['express', 9_930],
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
