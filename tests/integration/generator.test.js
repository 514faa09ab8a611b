'use strict'
// Integration (make test-integration): the same load run by wrk and by autocannon, and wrk counting
// statuses, against live servers. The generators' logic is unit-tested in tests/unit/generator.test.js.
const { test } = require('node:test')
const h = require('@workbook/harness')
const { internal, SHORT, serveHere } = require('../unit/helpers')
const { wrkVersion } = internal('core/generator')

test('the same load by wrk and by autocannon: one record shape, each naming its generator and command', {
  skip: !wrkVersion() && 'wrk is not installed',
}, async (t) => {
  const byEach = {}
  await h.withApp('hello-http', async (app) => {
    for (const generator of ['wrk', 'autocannon'])
      byEach[generator] = await h.runLoad({ target: app, connections: 5, ...SHORT, generator })
  })
  for (const [name, r] of Object.entries(byEach)) {
    t.assert.strictEqual(r.generator.name, name)
    t.assert.match(r.command, name === 'wrk' ? / wrk -t\d+ -c5 -d1s --latency / : / autocannon -c 5 -d 1 /)
    t.assert.ok(r.reqPerSec.median > 0 && r.cpuPerRequestUs.median > 0, JSON.stringify(r.reqPerSec))
    t.assert.ok(r.latencyMs.p50 <= r.latencyMs.p75 && r.latencyMs.p75 <= r.latencyMs.p90, JSON.stringify(r.latencyMs))
    t.assert.strictEqual(r.runs.length, 2)
    t.assert.strictEqual(r.errors + r.timeouts + r.non2xx, 0)
  }
  t.assert.match(byEach.wrk.generator.report, /Latency Distribution[\s\S]*Requests\/sec:/)
  t.assert.strictEqual(byEach.autocannon.generator.report, null)
  // wrk has no latency per second; its seconds carry the server's CPU and the requests the probe counted
  t.assert.ok(byEach.wrk.series.every((s) => s.latencyP99Ms === null && s.serverCpuPercent !== null))
})

test('wrk counts statuses when some are allowed, and a status nobody allowed fails the load', {
  skip: !wrkVersion() && 'wrk is not installed',
}, async (t) => {
  let n = 0
  // fetch's preflight request (it sends a user-agent, wrk does not) always gets a 200
  const url = await serveHere(t, (req, res) => {
    res.statusCode = !req.headers['user-agent'] && n++ % 2 ? 503 : 200
    res.end('x')
  })
  const r = await h.runLoad({
    target: url,
    connections: 2,
    ...SHORT,
    repeats: 1,
    generator: 'wrk',
    allowStatuses: [503],
  })
  t.assert.ok(r.statusCodes['503'] > 0 && r.statusCodes['200'] > 0, JSON.stringify(r.statusCodes))
  await t.assert.rejects(
    h.runLoad({ target: url, connections: 2, ...SHORT, repeats: 1, generator: 'wrk' }),
    /unexpected statuses: \d+ x 4xx\/5xx/,
  )
})
