'use strict'
const { test } = require('node:test')
const h = require('@workbook/harness')
const { fixture, SHORT, serveHere, internal } = require('./helpers')
const { LoadTestError } = require('./helpers').internal('core/errors')

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
  t.assert.ok(r.statusCodes['200'] === r.totalRequests)
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

test('a URL target has no server figures: no CPU per request, no pinning of the generator', async (t) => {
  const url = await serveHere(t, (req, res) => res.end('ok'))
  const r = await h.runLoad({ target: url, connections: 2, ...SHORT, repeats: 1 })
  t.assert.strictEqual(r.cpuPerRequestUs, null)
  t.assert.strictEqual(r.server, null)
  t.assert.match(r.pinning.note, /^not pinned/)
})

// The mechanism, with made-up counters (no load): CPU per request and saturation over the steady seconds.
test('steadyFigures leaves out the first second of a run of 3 s or more, and reads saturation from the generator', (t) => {
  const { steadyFigures } = internal('load/run')
  const { SATURATION_CPU_PERCENT } = h
  const second = (requests, serverCpuMs, generatorCpuMs) => ({ requests, wallMs: 1000, serverCpuMs, generatorCpuMs })
  const latency = { count: 1, p50: 1, p90: 1, p99: 1, mean: 1, max: 1 }
  // A slow first second (connections, JIT) then 10,000 req/s at 500 ms of server CPU: 50 µs per request.
  const busy = steadyFigures(
    'run 1',
    [second(2000, 900, 300), second(10000, 500, 950), second(10000, 500, 960)],
    latency,
  )
  t.assert.deepStrictEqual(
    [busy.steadySeconds, busy.reqPerSec, busy.cpuPerRequestUs, busy.serverCpuPercent],
    [2, 10000, 50, 50],
  )
  t.assert.ok(busy.generatorCpuPercent >= SATURATION_CPU_PERCENT && busy.saturated)
  // Two seconds: both count. A generator at half a core is not saturated.
  const calm = steadyFigures('run 2', [second(100, 10, 500), second(100, 10, 500)], latency)
  t.assert.deepStrictEqual([calm.steadySeconds, calm.cpuPerRequestUs, calm.saturated], [2, 100, false])
  // No server counters (a URL target): no CPU figures.
  const url = steadyFigures('run 3', [second(100, null, 10)], latency)
  t.assert.deepStrictEqual([url.cpuPerRequestUs, url.serverCpuPercent], [null, null])
})

test('runLoad refuses a non-loopback target before sending anything', async (t) => {
  await t.assert.rejects(h.runLoad({ target: 'http://192.168.1.20:3000/', ...SHORT }), /only targets loopback/)
})

test('runLoad refuses a path that leads off loopback, before sending anything', async (t) => {
  let requests = 0
  const url = await serveHere(t, (req, res) => {
    requests++
    res.end('ok')
  })
  for (const path of ['//example.com/x', 'http://10.0.0.1/', '\\\\example.com/x']) {
    await t.assert.rejects(h.runLoad({ target: url, path, ...SHORT }), /refusing path .* only targets loopback/, path)
  }
  t.assert.strictEqual(requests, 0)
})

// A server that answers its first requests after the pre-flight one badly (`bad(req, res)`), then well.
function badAtFirst(t, count, bad) {
  let n = 0
  return serveHere(t, (req, res) => {
    n++
    if (n > 1 && n <= 1 + count) bad(req, res)
    else res.end('ok')
  })
}

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

test('a route answering 404 fails loudly before the load, unless 404 is expected', async (t) => {
  await h.withApp('hello-http', async (app) => {
    await t.assert.rejects(
      h.runLoad({ target: app, path: '/missing', ...SHORT }),
      /answered 404 before the load test \(expected 2xx\): not found/,
    )
    const r = await h.runLoad({ target: app, path: '/missing', allowStatuses: [404], ...SHORT, repeats: 1 })
    t.assert.ok(r.statusCodes['404'] > 0 && r.non2xx === r.totalRequests)
  })
})

test('an app that dies under load fails the test with its stderr', async (t) => {
  await h.withApp(
    { entry: fixture('dies-under-load.js') },
    async (app) => {
      await t.assert.rejects(h.runLoad({ target: app, connections: 10, ...SHORT }), (err) => {
        t.assert.match(err.message, /died under load \(code 3/)
        t.assert.match(err.message, /planted crash after 300 requests/)
        return true
      })
    },
    { probe: false },
  )
})

// A server whose first loaded request takes `delayMs` (the pre-flight request is answered at once).
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

test('a request that outlives an explicit timeout fails the load test', async (t) => {
  const url = await lateOnce(t, 2_500)
  await t.assert.rejects(
    h.runLoad({ target: url, connections: 1, duration: 3, warmup: 0, repeats: 1, timeout: 1, live: false }),
    /1 timeouts/,
  )
})
