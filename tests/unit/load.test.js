'use strict'
const { test } = require('node:test')
const h = require('@workbook/harness')
const { fixture, SHORT, serveHere } = require('./helpers')

test('runLoad returns a tidy record with spread, percentiles, usage and fingerprint', async (t) => {
  const r = await h.withApp('hello-http', (app) => h.runLoad({ target: app, connections: 5, ...SHORT, warmup: 1 }))
  t.assert.strictEqual(r.reqPerSec.runs.length, 2)
  t.assert.ok(r.reqPerSec.min <= r.reqPerSec.median && r.reqPerSec.median <= r.reqPerSec.max)
  t.assert.ok(r.reqPerSec.median > 0)
  t.assert.ok(r.latencyMs.p50 > 0 && r.latencyMs.p99 >= r.latencyMs.p90 && r.latencyMs.p90 >= r.latencyMs.p50)
  t.assert.strictEqual(r.errors + r.timeouts + r.non2xx, 0)
  t.assert.ok(r.statusCodes['200'] === r.totalRequests)
  t.assert.ok(r.server && r.server.rssPeakMB > 10 && r.server.cpuPercent >= 0)
  t.assert.strictEqual(typeof r.generator.saturated, 'boolean')
  t.assert.ok(r.series.some((s) => s.run === 'warm-up') && r.series.some((s) => s.run === 'run 2'))
  t.assert.strictEqual(r.fingerprint.node, process.version)
})

test('runLoad refuses a non-loopback target before sending anything', async (t) => {
  await t.assert.rejects(h.runLoad({ target: 'http://192.168.1.20:3000/', ...SHORT }), /only targets loopback/)
})

test('a route answering 404 fails loudly before the load, unless 404 is expected', async (t) => {
  await h.withApp('hello-http', async (app) => {
    await t.assert.rejects(h.runLoad({ target: app, path: '/missing', ...SHORT }), /answered 404 before the load test \(expected 2xx\): not found/)
    const r = await h.runLoad({ target: app, path: '/missing', allowStatuses: [404], ...SHORT, repeats: 1 })
    t.assert.ok(r.statusCodes['404'] > 0 && r.non2xx === r.totalRequests)
  })
})

test('an app that dies under load fails the test with its stderr', async (t) => {
  await h.withApp({ entry: fixture('dies-under-load.js') }, async (app) => {
    await t.assert.rejects(h.runLoad({ target: app, connections: 10, ...SHORT }), (err) => {
      t.assert.match(err.message, /died under load \(code 3/)
      t.assert.match(err.message, /planted crash after 300 requests/)
      return true
    })
  }, { probe: false })
})

// A server whose first loaded request takes `delayMs` (the pre-flight request is answered at once).
function lateOnce (t, delayMs) {
  let n = 0
  return serveHere(t, (req, res) => { n++; setTimeout(() => res.end('ok'), n === 2 ? delayMs : 0) })
}

test('in a run longer than 10 s, an answer slower than 10 s is measured, not dropped as a timeout', async (t) => {
  const url = await lateOnce(t, 10_500)
  const r = await h.runLoad({ target: url, connections: 1, duration: 12, warmup: 0, repeats: 1, live: false })
  t.assert.strictEqual(r.errors + r.timeouts, 0)
  t.assert.ok(r.latencyMs.max >= 10_500, `slowest answer ${r.latencyMs.max} ms`)
})

test('a request that outlives an explicit timeout fails the load test', async (t) => {
  const url = await lateOnce(t, 2_500)
  await t.assert.rejects(h.runLoad({ target: url, connections: 1, duration: 3, warmup: 0, repeats: 1, timeout: 1, live: false }), /1 timeouts/)
})
