'use strict'
// The load generators: which one runs a load, the command line each result carries, and wrk's
// figures read back, from wrk output recorded here. The same load run live by both is an integration
// test (tests/integration/generator.test.js).
const { test } = require('node:test')
const h = require('@workbook/harness')
const { internal } = require('./helpers')
const gen = { ...internal('load/generator'), ...internal('core/shell') }
const wrk = internal('load/wrk')
const { outcomeProblems } = internal('load/outcome')
const { wrkVersion, measuringGenerator } = internal('core/generator')

// What harness/wrk/report.lua printed for a 1 s run of 10 connections (abridged grid), after wrk's own report.
const RECORDED = [
  'Running 1s test @ http://127.0.0.1:46487/json',
  '  1 threads and 10 connections',
  '  7014 requests in 1.00s, 1.23MB read',
  'Requests/sec:   6985.33',
  'WORKBOOK-WRK {"requests":1000,"durationUs":1004105,"bytes":180000,"cpuTicks":33,' +
    '"errors":{"connect":0,"read":0,"write":0,"status":0,"timeout":0},' +
    '"latencyUs":{"min":100,"max":9000,"mean":1200,"stdev":900,' +
    '"percentiles":[[25,500],[50,1000],[75,2000],[90,4000],[99,8000],[99.9,8800]]},"statuses":null}',
  '',
].join('\n')

test("parseWrk splits wrk's own report from the reporter's line, and refuses output without it", (t) => {
  const { figures, report } = wrk.parseWrk(RECORDED)
  t.assert.strictEqual(figures.requests, 1000)
  t.assert.strictEqual(figures.cpuTicks, 33)
  t.assert.match(report, /^Running 1s test/)
  t.assert.doesNotMatch(report, /WORKBOOK-WRK/)
  t.assert.throws(() => wrk.parseWrk('Running 1s test\nRequests/sec: 1\n'), /printed no WORKBOOK-WRK line/)
})

test("wrkHistogram rebuilds the distribution: wrk's percentiles come back at its grid points", (t) => {
  const { figures } = wrk.parseWrk(RECORDED)
  const hist = wrk.wrkHistogram(figures)
  t.assert.strictEqual(hist.totalCount, 1000)
  const at = (p) => hist.getValueAtPercentile(p)
  // hdr keeps three significant digits: within 0.1 % of wrk's value
  for (const [p, us] of [
    [50, 1000],
    [75, 2000],
    [90, 4000],
    [99, 8000],
  ]) {
    t.assert.ok(Math.abs(at(p) - us) <= us * 0.001, `p${p}: ${at(p)} against wrk's ${us}`)
  }
  t.assert.ok(Math.abs(hist.maxValue - 9000) <= 9, `max ${hist.maxValue}`)
  t.assert.strictEqual(wrk.wrkHistogram({ ...figures, requests: 0 }).totalCount, 0)
})

test('wrkOutcome: without a status count, wrk knows only "above 399"; with one, every status', (t) => {
  const { figures } = wrk.parseWrk(RECORDED)
  const clean = wrk.wrkOutcome(figures)
  t.assert.deepStrictEqual(clean.statusCodes, { '2xx/3xx': 1000 })
  t.assert.deepStrictEqual(outcomeProblems(clean), [])
  const bad = wrk.wrkOutcome({ ...figures, errors: { ...figures.errors, status: 40, read: 2, timeout: 3 } })
  t.assert.deepStrictEqual(bad.statusCodes, { '2xx/3xx': 960, '4xx/5xx': 40 })
  t.assert.deepStrictEqual([bad.non2xx, bad.errors, bad.timeouts], [40, 2, 3])
  t.assert.deepStrictEqual(outcomeProblems(bad), ['unexpected statuses: 40 x 4xx/5xx', '2 errors and 3 timeouts'])
  const counted = wrk.wrkOutcome({ ...figures, statuses: { 200: 900, 304: 60, 503: 40 } })
  t.assert.strictEqual(counted.non2xx, 100)
  t.assert.deepStrictEqual(outcomeProblems(counted, new Set([304, 503])), [])
  t.assert.deepStrictEqual(outcomeProblems(counted, new Set([304])), ['unexpected statuses: 40 x 503'])
})

test('generatorFor: what is asked, else the measuring generator, else autocannon for what wrk cannot do', (t) => {
  const load = {
    url: 'http://127.0.0.1:1/',
    method: 'GET',
    connections: 10,
    pipelining: 1,
    seconds: 1,
    timeoutSeconds: 10,
  }
  t.assert.strictEqual(gen.generatorFor(load, 'autocannon'), 'autocannon')
  t.assert.strictEqual(gen.generatorFor({ ...load, rate: 100 }), 'autocannon')
  t.assert.strictEqual(gen.generatorFor({ ...load, pipelining: 10 }), 'autocannon')
  t.assert.strictEqual(gen.generatorFor({ ...load, seconds: 0.5 }), 'autocannon')
  t.assert.strictEqual(gen.generatorFor({ ...load, method: 'HEAD' }), 'autocannon')
  t.assert.throws(() => gen.generatorFor({ ...load, rate: 100 }, 'wrk'), /wrk cannot run this load \(a capped rate\)/)
  t.assert.strictEqual(gen.generatorFor(load), measuringGenerator().name)
})

test('the measuring generator: wrk when installed, WORKBOOK_GENERATOR forces one, a bad value is refused', (t) => {
  const before = process.env.WORKBOOK_GENERATOR
  t.after(() => {
    if (before === undefined) delete process.env.WORKBOOK_GENERATOR
    else process.env.WORKBOOK_GENERATOR = before
  })
  delete process.env.WORKBOOK_GENERATOR
  t.assert.strictEqual(measuringGenerator().name, wrkVersion() ? 'wrk' : 'autocannon')
  process.env.WORKBOOK_GENERATOR = 'autocannon'
  t.assert.strictEqual(measuringGenerator().name, 'autocannon')
  t.assert.match(h.describeMachine(), /measured with autocannon/)
  process.env.WORKBOOK_GENERATOR = 'ab'
  t.assert.throws(() => measuringGenerator(), /WORKBOOK_GENERATOR must be "wrk" or "autocannon", got "ab"/)
})

test('without wrk on PATH the fingerprint says autocannon measured, and how to install wrk', (t) => {
  const { execFileSync } = require('node:child_process')
  const script = `const h = require(${JSON.stringify(require.resolve('@workbook/harness'))}); console.log(h.describeMachine())`
  const out = execFileSync(process.execPath, ['-e', script], {
    encoding: 'utf8',
    env: { ...process.env, PATH: '/nonexistent', WORKBOOK_GENERATOR: '' },
  })
  t.assert.match(out, /measured with autocannon\nNote: wrk is not installed, .*apt-get install wrk/)
})

test('command lines a learner can paste: quoted where the shell needs it, pinned when the load was', (t) => {
  t.assert.strictEqual(gen.shellWord('http://127.0.0.1:80/json?a=1'), "'http://127.0.0.1:80/json?a=1'")
  t.assert.strictEqual(gen.shellWord('-c100'), '-c100')
  t.assert.strictEqual(gen.shellWord("it's"), "'it'\\''s'")
  const load = {
    url: 'http://127.0.0.1:8080/json',
    method: 'POST',
    connections: 100,
    pipelining: 1,
    seconds: 5,
    timeoutSeconds: 10,
    headers: { 'content-type': 'application/json' },
    body: '{"a":1}',
  }
  const { argv, env } = gen.wrkCommand(load, false, false)
  t.assert.strictEqual(
    gen.shellLine(argv, env),
    `WORKBOOK_WRK_METHOD=POST WORKBOOK_WRK_BODY='{"a":1}' wrk -t${gen.wrkThreads(100)} -c100 -d5s --latency --timeout 10s ` +
      "-H 'content-type: application/json' -s harness/wrk/report.lua http://127.0.0.1:8080/json",
  )
  t.assert.strictEqual(
    gen.shellLine(
      gen.autocannonCommand({ ...load, method: 'GET', body: undefined, headers: {}, pipelining: 10 }, false),
    ),
    'npx autocannon -c 100 -d 5 -p 10 -t 10 http://127.0.0.1:8080/json',
  )
  if (h.pinning().enabled) t.assert.match(gen.shellLine(gen.wrkCommand(load, true, false).argv), /^taskset -c \d/)
})

test("withNodeFlags puts Node options after the node of an app's command, and leaves other commands alone", (t) => {
  t.assert.strictEqual(
    gen.withNodeFlags('PORT=4000 taskset -c 1 node apps/x/server.js', ['--heap-prof', '--heap-prof-dir=a b']),
    "PORT=4000 taskset -c 1 node --heap-prof '--heap-prof-dir=a b' apps/x/server.js",
  )
  t.assert.strictEqual(gen.withNodeFlags('node server.js', ['--x']), 'node --x server.js')
  t.assert.strictEqual(gen.withNodeFlags('bun server.js', ['--x']), 'bun server.js')
  t.assert.strictEqual(gen.withNodeFlags('nodemon server.js', ['--x']), 'nodemon server.js')
})

test('withNodeFlags finds the pinned Node by its path, from the root or from a folder below it', (t) => {
  t.assert.strictEqual(
    gen.withNodeFlags('PORT=1 taskset -c 1 node_modules/node/bin/node apps/x/server.js', ['--heap-prof']),
    'PORT=1 taskset -c 1 node_modules/node/bin/node --heap-prof apps/x/server.js',
  )
  t.assert.strictEqual(
    gen.withNodeFlags('(cd a/b && PORT=1 ../../node_modules/node/bin/node server.js)', ['--x']),
    '(cd a/b && PORT=1 ../../node_modules/node/bin/node --x server.js)',
  )
})

test("a command line writes the workbook's own paths from where it runs: never the checkout's folder, never a bare node", (t) => {
  const path = require('node:path')
  const root = h.repoRoot
  const argv = [
    'taskset',
    '-c',
    '1',
    process.execPath,
    `--cpu-prof-dir=${path.join(root, 'results', 'p x')}`,
    path.join(root, 'apps', 'a', 'server.js'),
  ]
  t.assert.strictEqual(
    gen.shellLine(argv, { CACHE: path.join(root, 'build') }),
    "CACHE=build taskset -c 1 node_modules/node/bin/node '--cpu-prof-dir=results/p x' apps/a/server.js",
  )
  t.assert.strictEqual(
    gen.shellLine([process.execPath, 'server.js'], {}, path.join(root, 'apps', 'a')),
    '../../node_modules/node/bin/node server.js',
  )
  // a path outside the workbook is the learner's own: kept as given
  t.assert.strictEqual(gen.shellLine(['/srv/app/server.js']), '/srv/app/server.js')
  t.assert.strictEqual(gen.fromWorkbookText(`at f (${root}/apps/a/util.js:3:1)`), 'at f (apps/a/util.js:3:1)')
  t.assert.doesNotMatch(gen.shellLine(argv), new RegExp(root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
})

test("a load's own wrk threads: -t as asked, and saturation judged on the CPUs they can use, not per thread", (t) => {
  const load = {
    url: 'http://127.0.0.1:8080/',
    method: 'GET',
    connections: 500,
    pipelining: 1,
    seconds: 300,
    timeoutSeconds: 301,
  }
  // the 2022 study's -t 12: twelve threads asked, at most the generator's CPUs running at once
  const asked = gen.wrkCommand({ ...load, threads: 12 }, false, false)
  t.assert.match(gen.shellLine(asked.argv), /^wrk -t12 -c500 -d300s /)
  t.assert.strictEqual(asked.threads, 12)
  t.assert.strictEqual(asked.parallel, gen.wrkParallel(12))
  t.assert.ok(asked.parallel >= 1 && asked.parallel <= 12, String(asked.parallel))
  // unset: one per CPU the generator is given, at most one per connection, as before
  const plain = gen.wrkCommand(load, false, false)
  t.assert.strictEqual(plain.threads, gen.wrkThreads(500))
  t.assert.strictEqual(plain.parallel, plain.threads)
  t.assert.strictEqual(gen.wrkThreads(1), 1)
})

test('runLoad refuses threads that wrk cannot have, or that autocannon would ignore, before any request', async (t) => {
  const target = 'http://127.0.0.1:9/'
  await t.assert.rejects(
    h.runLoad({ target, generator: 'autocannon', threads: 2 }),
    /sets wrk's -t; autocannon runs on one/,
  )
  if (wrkVersion()) {
    await t.assert.rejects(
      h.runLoad({ target, generator: 'wrk', connections: 2, threads: 4 }),
      /from 1 to the connections \(2\)/,
    )
    await t.assert.rejects(h.runLoad({ target, generator: 'wrk', threads: 1.5 }), /whole number/)
  }
})
