'use strict'
const { test } = require('node:test')
const h = require('@workbook/harness')
const { SHORT, serveHere, internal } = require('./helpers')

test('a URL target has no server figures: no CPU per request, no pinning of the generator', async (t) => {
  const url = await serveHere(t, (req, res) => res.end('ok'))
  const r = await h.runLoad({ target: url, connections: 2, ...SHORT, repeats: 1 })
  t.assert.strictEqual(r.cpuPerRequestUs, null)
  t.assert.strictEqual(r.server, null)
  t.assert.match(r.pinning.note, /^not pinned/)
})

// The mechanism, with made-up counters (no load): CPU per request and saturation over the steady seconds.
test('steadyFigures leaves out the first second of a run of 3 s or more, and reads saturation from the generator', (t) => {
  const { steadyFigures } = internal('load/seconds')
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
  // wrk's run as one stretch: requests over its own 1,000 ms, CPU read over the 1,090 ms from its start to
  // its exit. The CPU's share is taken over the CPU's window (100 %), not wrk's (109 %).
  const wrk = steadyFigures('run 4', [{ ...second(20000, 1090, 545), cpuWallMs: 1090 }], latency)
  t.assert.deepStrictEqual([wrk.reqPerSec, wrk.serverCpuPercent, wrk.generatorCpuPercent], [20000, 100, 50])
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
