'use strict'
// Integration (make test-integration): runLoad against live servers: the record it returns, the
// failures it reports (statuses and timeouts in the warm-up, an app that dies, a request over its
// timeout), and an answer slower than 10 s, timed.
const { test } = require('node:test')
const h = require('@workbook/harness')
const { fixture, SHORT, serveHere, internal } = require('../unit/helpers')
const { LoadTestError } = internal('core/errors')

// A server that answers its first requests after the pre-flight one badly (`bad(req, res)`), then well.
function badAtFirst(t, count, bad) {
  let n = 0
  return serveHere(t, (req, res) => {
    n++
    if (n > 1 && n <= 1 + count) bad(req, res)
    else res.end('ok')
  })
}

// A server whose second answer comes after `delayMs`, the others at once.
function lateOnce(t, delayMs) {
  let n = 0
  return serveHere(t, (req, res) => {
    n++
    setTimeout(() => res.end('ok'), n === 2 ? delayMs : 0)
  })
}

test('in a run longer than 10 s, an answer slower than 10 s is measured, not dropped as a timeout', async (t) => {
  const url = await lateOnce(t, 10_500)
  const r = await h.runLoad({ target: url, connections: 1, duration: 12, warmup: 0, repeats: 1, live: false })
  t.assert.strictEqual(r.errors + r.timeouts, 0)
  t.assert.ok(r.latencyMs.max >= 10_500, `slowest answer ${r.latencyMs.max} ms`)
})

test('runLoad returns a tidy record with spread, percentiles, usage and fingerprint', async (t) => {
  const edges = []
  const onMeasured = (edge, at) => edges.push([edge, at])
  const t0 = performance.now()
  const r = await h.withApp('hello-http', (app) =>
    h.runLoad({ target: app, connections: 5, ...SHORT, warmup: 1, onMeasured }),
  )
  // the measured runs' edges: after the 1 s warm-up, around both runs, before runLoad returned
  t.assert.deepStrictEqual(
    edges.map(([edge]) => edge),
    ['start', 'end'],
  )
  const [[, start], [, end]] = edges
  t.assert.ok(start - t0 >= 1000 && end - start >= 2 * SHORT.duration * 1000, JSON.stringify({ t0, edges }))
  t.assert.ok(end <= performance.now())
  t.assert.strictEqual(r.reqPerSec.runs.length, 2)
  t.assert.ok(r.reqPerSec.min <= r.reqPerSec.median && r.reqPerSec.median <= r.reqPerSec.max)
  t.assert.ok(r.reqPerSec.median > 0)
  t.assert.ok(r.latencyMs.p50 > 0 && r.latencyMs.p99 >= r.latencyMs.p90 && r.latencyMs.p90 >= r.latencyMs.p50)
  t.assert.strictEqual(r.errors + r.timeouts + r.non2xx, 0)
  // wrk (when installed) tells only whether a status was above 399; autocannon counts each status
  t.assert.ok((r.statusCodes['200'] ?? r.statusCodes['2xx/3xx']) === r.totalRequests, JSON.stringify(r.statusCodes))
  t.assert.strictEqual(r.generator.name, internal('core/generator').measuringGenerator().name)
  t.assert.ok(r.command.includes(r.url), r.command)
  t.assert.ok(r.server && r.server.rssPeakMB > 10 && r.server.cpuPercent.median > 0)
  // The server's CPU time per request, read from its own counters: a node:http hello world costs microseconds.
  t.assert.strictEqual(r.cpuPerRequestUs.runs.length, 2)
  t.assert.ok(r.cpuPerRequestUs.median > 1 && r.cpuPerRequestUs.median < 10_000, JSON.stringify(r.cpuPerRequestUs))
  t.assert.strictEqual(typeof r.generator.saturated, 'boolean')
  t.assert.strictEqual(r.generator.saturatedRuns, r.runs.filter((x) => x.saturated).length)
  t.assert.ok(r.series.some((s) => s.run === 'warm-up') && r.series.some((s) => s.run === 'run 2'))
  t.assert.ok(r.series.every((s) => s.generatorCpuPercent >= 0 && s.serverCpuPercent !== null))
  t.assert.strictEqual(r.fingerprint.node, process.version)
  if (h.pinning().enabled)
    t.assert.deepStrictEqual([r.pinning.server, r.pinning.generator], [h.pinning().server, h.pinning().generator])
})

test('unexpected statuses and timeouts in the warm-up fail the test, by the same rules as the measured runs', async (t) => {
  const cheap = { connections: 1, rate: 50, warmup: 1, duration: 1, repeats: 1, live: false } // about 100 requests
  const fails = (req, res) => {
    res.statusCode = 500
    res.end('planted failure')
  }
  await t.assert.rejects(
    h.runLoad({ target: await badAtFirst(t, 10, fails), ...cheap }),
    (err) =>
      err instanceof LoadTestError &&
      /failed in the warm-up, before any measured run: unexpected statuses: 10 x 500/.test(err.message),
  )
  // A request left unanswered past its timeout (autocannon resends a request whose socket the server
  // destroys instead of counting an error, so a timeout is the socket-level failure to plant).
  await t.assert.rejects(
    h.runLoad({ target: await badAtFirst(t, 1, () => {}), ...cheap, warmup: 2, timeout: 1 }),
    /failed in the warm-up, before any measured run: \d+ errors and [1-9]\d* timeouts/,
  )
  const r = await h.runLoad({ target: await badAtFirst(t, 10, fails), ...cheap, allowStatuses: [500] })
  t.assert.strictEqual(r.non2xx, 0) // the 500s were all in the (discarded) warm-up
})

test('an app that dies under load fails the test with its stderr', async (t) => {
  await h.withApp(
    { entry: fixture('dies-under-load.js') },
    async (app) => {
      await t.assert.rejects(h.runLoad({ target: app, connections: 10, ...SHORT }), (err) => {
        t.assert.match(err.message, /died under load: it exited with code 3/)
        t.assert.match(err.message, /planted crash after 300 requests/)
        return true
      })
    },
    { probe: false },
  )
})

test('a request that outlives an explicit timeout fails the load test', async (t) => {
  const url = await lateOnce(t, 2_500)
  await t.assert.rejects(
    h.runLoad({ target: url, connections: 1, duration: 3, warmup: 0, repeats: 1, timeout: 1, live: false }),
    /1 timeouts/,
  )
})
