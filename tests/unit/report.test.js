'use strict'
// What a cell prints under every load (harness/src/load/report.ts): what set its pace, the figures that
// cannot be, and the commands. Each wording is fed figures on both sides of the line where it changes.
const { test } = require('node:test')
const { internal } = require('./helpers')

const { paceText, implausibleFigures, loadReport, pacedReport, loadCommandText, serverCores, stoppedLoadReport } =
  internal('load/report')
const { spread } = internal('core/stats')

/** A load as runLoad returns it, with only the figures the report reads. */
function load({
  rps = 40000,
  meanMs = 0.25,
  c = 10,
  p = 1,
  serverCpu = 60,
  genCpu = 50,
  saturatedRuns = 0,
  name = 'wrk',
  rate = null,
  cpus = '1',
  cores = 2,
  seconds = 1,
} = {}) {
  return {
    label: 'hello-http /',
    connections: c,
    pipelining: p,
    rate,
    durationSeconds: seconds,
    runs: [{}, {}, {}],
    reqPerSec: spread([rps, rps, rps]),
    latencyMs: { mean: meanMs },
    server: serverCpu === null ? null : { cpuPercent: spread([serverCpu]) },
    generator: { name, cpuPercent: spread([genCpu]), saturatedRuns },
    pinning: { server: cpus, generator: cpus ? '0' : null },
    fingerprint: { cores },
    command: `taskset -c 0 ${name} -c${c} http://127.0.0.1:1/`,
    commandKind: name === 'wrk' ? 'ran' : 'equivalent',
    serverCommand: 'PORT=1 taskset -c 1 node apps/hello-http/server.js',
  }
}

test("paceText names the fixed rate, the generator, the server, or else the round trip by Little's law", (t) => {
  t.assert.match(
    paceText(load({ rate: 1000, rps: 999 })),
    /^What set the pace: the fixed rate, 1,000 req\/s asked and 999 served/,
  )
  t.assert.match(
    paceText(load({ saturatedRuns: 2, genCpu: 97, name: 'autocannon' })),
    /the load generator \(autocannon used 97 % of its core, at or above its 90 % line in 2 of 3 runs\).*a floor/,
  )
  t.assert.match(
    paceText(load({ saturatedRuns: 1, serverCpu: 99 })),
    /the server: it used 99 % of its core/,
    'one saturated run of three does not decide',
  )
  t.assert.match(
    paceText(load({ serverCpu: 89 })),
    /the round trip, as neither was at its limit \(the server used 89 % of its core; wrk used 50 % of its core\): 10 connections \/ 0\.25 ms mean latency = 40,000 req\/s by Little's law, against 40,000 measured\.$/,
  )
  t.assert.match(paceText(load({ serverCpu: 181, cpus: '1-2', cores: 4 })), /the server: it used 181 % of its 2 cores/)
  t.assert.match(
    paceText(load({ serverCpu: 150, cpus: null, cores: 2 })),
    /neither was at its limit \(the server used 150 % of its 2 cores/,
    'unpinned: every core of the machine',
  )
  t.assert.match(
    paceText(load({ serverCpu: null })),
    /the round trip, as the server's CPU was not measured: 10 connections/,
  )
  t.assert.match(
    paceText(load({ meanMs: 3, rps: 25000 })),
    /Little's law on it reads low/,
    "wrk's corrected mean above Little's law",
  )
  t.assert.strictEqual(serverCores(load({ cpus: '1,3-4' })), 3)
  // No generator reading (a platform without /proc or ps): said once, not "not measured (not measured ...)".
  const unread = load({ serverCpu: null, saturatedRuns: null })
  unread.generator.cpuPercent = null
  t.assert.match(
    paceText(unread),
    /^What set the pace: not known: wrk's CPU was not measured on this platform \([^()]+\); the server's CPU was not measured\.$/,
  )
})

test('implausibleFigures flags CPU above the pinned cores and more requests in flight than connections, with the cause', (t) => {
  t.assert.deepStrictEqual(implausibleFigures(load({ serverCpu: 100 })), [])
  const tick = implausibleFigures(load({ serverCpu: 100.99 }))
  t.assert.match(
    tick[0],
    /read 101 % of its core, above their 100 %: within the ±2 % a 1-s window of 10-ms clock ticks allows: read it as 100 %/,
  )
  t.assert.match(implausibleFigures(load({ serverCpu: 130 }))[0], /beyond the clock tick's error/)
  t.assert.deepStrictEqual(implausibleFigures(load({ serverCpu: 130, cpus: '1-2' })), [], 'two cores carry 130 %')
  const ac = implausibleFigures(load({ meanMs: 3.26, rps: 25261.7, name: 'autocannon' }))
  t.assert.match(
    ac[0],
    /82\.4 requests in flight by Little's law \(25,262 req\/s x 3\.26 ms\), more than the 10 its connections carry \(8\.24x\): the mean latency and the req\/s cover different windows/,
  )
  // wrk's mean includes the requests its coordinated-omission correction adds: not a figure that cannot be.
  t.assert.deepStrictEqual(implausibleFigures(load({ meanMs: 3.26, rps: 25261.7 })), [])
  t.assert.deepStrictEqual(
    implausibleFigures(load({ meanMs: 2.5, c: 10, p: 10, rps: 40000 })),
    [],
    'pipelining carries c x p',
  )
})

test('loadReport gives each load its pace and flags, then one command block headed by what really ran', (t) => {
  const one = loadReport([load({ serverCpu: 100.99 })])
  t.assert.match(one, /^What set the pace: .*\n\n\*\*Check, hello-http \/:\*\* the server read 101 %/)
  t.assert.match(
    one,
    /The command that ran \(from the workbook's folder\):\n\n```sh\n# the server\nPORT=1 taskset -c 1 node apps\/hello-http\/server\.js\n# the load, from a second terminal\ntaskset -c 0 wrk -c10/,
  )
  const two = loadReport([load(), { ...load({ name: 'autocannon' }), label: 'by autocannon' }])
  t.assert.match(two, /^\*\*hello-http \/\*\*: What set the pace/)
  t.assert.match(two, /\n\n\*\*by autocannon\*\*: What set the pace/)
  t.assert.match(two, /The same loads from the command line/, 'one equivalent among them: not all of it ran')
  t.assert.match(
    loadCommandText({ label: 'a', command: 'npx autocannon URL', commandKind: 'equivalent' }),
    /^The same load from the command line \(/,
  )
})

test('pacedReport: the schedule set the pace; the generator kept it or fell behind, against the gap between two requests', (t) => {
  const r = (key, lateMs) => ({
    key,
    cheap: { label: `${key} /cheap`, rate: 200, sendLagMs: { p99: lateMs } },
    runs: [
      {
        cheap: { label: `${key} /cheap`, command: 'npx autocannon -R 200 URL' },
        background: { label: `${key} /expensive`, command: 'npx autocannon -R 4 URL2' },
      },
    ],
  })
  const kept = pacedReport([r('a', 1.2), r('b', 3.4)], { a: 'node a.js', b: null })
  t.assert.match(
    kept,
    /sent at most 3\.40 ms late at p99 \(b \/cheap\), less than the 5 ms between two of its requests\./,
  )
  t.assert.match(kept, /The same loads from the command line \(from the workbook's folder\):/)
  t.assert.match(
    kept,
    /# the server of a \/cheap, a \/expensive\nnode a\.js\n# a \/cheap: the load, from a second terminal\nnpx autocannon -R 200 URL\n/,
  )
  t.assert.match(
    pacedReport([r('a', 7)], {}),
    /7 ms late at p99 \(a \/cheap\), more than the 5 ms between two of its requests: the generator fell behind/,
  )
})

test("loadReport folds many loads' pace sentences under a count of each pace-setter, and never folds a flag", (t) => {
  const loads = [
    load(),
    load({ serverCpu: 99 }),
    load({ serverCpu: 99 }),
    { ...load({ serverCpu: 130 }), label: 'hot' },
  ]
  const text = loadReport(loads)
  t.assert.match(
    text,
    /^<details><summary>What set the pace of these 4 loads: the round trip in 1, the server in 3<\/summary>\n\n\*\*hello-http \/\*\*: What set the pace/,
  )
  t.assert.match(text, /<\/details>\n\n\*\*Check, hot:\*\* the server read 130 %/)
  t.assert.match(text, /\n\nThe commands that ran \(from the workbook's folder\):/)
})

test('stoppedLoadReport says the load stopped, why, and how to run it again', (t) => {
  const err = Object.assign(new Error('app "memory-leak" died under load: it was killed by SIGABRT\nstderr...'), {
    summary: 'app "memory-leak" died under load: it was killed by SIGABRT',
  })
  const text = stoppedLoadReport(err, {
    label: 'memory-leak /reviews',
    command: 'wrk URL',
    serverCommand: 'node --max-old-space-size=48 apps/memory-leak/server.js',
  })
  t.assert.match(
    text,
    /^\*\*memory-leak \/reviews\*\*: the load stopped early: app "memory-leak" died under load: it was killed by SIGABRT\.\n\nThe command that ran/,
  )
  t.assert.match(
    text,
    /# the server\nnode --max-old-space-size=48 apps\/memory-leak\/server\.js\n# the load, from a second terminal\nwrk URL/,
  )
  const { exitText } = internal('apps/spawn')
  t.assert.deepStrictEqual(
    [exitText({ code: null, signal: 'SIGABRT' }), exitText({ code: 1, signal: null }), exitText(null)],
    ['was killed by SIGABRT', 'exited with code 1', 'had not exited'],
  )
})

test('loadCommandText gives a server shared by several loads one line, above its loads', (t) => {
  const text = loadCommandText(
    { label: 'a /cheap', command: 'C1', serverCommand: 'SA' },
    { label: 'a /expensive', command: 'E1', serverCommand: 'SA' },
    { label: 'b /cheap', command: 'C2', serverCommand: 'SB' },
  )
  t.assert.match(
    text,
    /```sh\n# the server of a \/cheap, a \/expensive\nSA\n# a \/cheap: the load, from a second terminal\nC1\n# a \/expensive: the load, from a second terminal\nE1\n# b \/cheap: the server\nSB\n# b \/cheap: the load, from a second terminal\nC2\n```$/,
  )
})
