'use strict'
const { test } = require('node:test')
const h = require('@workbook/harness')
const { fixture, serveHere } = require('./helpers')

// The target runs in its own process (tests/fixtures/apps/paced-target.js): a server in
// this process would block the generator along with itself.
async function server (t) {
  const app = await h.startApp({ entry: fixture('paced-target.js') }, { probe: '/ok' })
  t.after(() => app.stop())
  return app.url
}

// A server without /__metrics, in this process (it never blocks).
function plainServer (t) {
  return serveHere(t, (req, res) => res.end('ok'))
}

test('pacedLoad sends rate x seconds requests, evenly spaced, and times each one', async (t) => {
  const url = await server(t)
  const r = await h.pacedLoad({ target: url, path: '/ok', rate: 50, seconds: 1 })
  t.assert.strictEqual(r.due, 50)
  t.assert.strictEqual(r.completed, 50)
  t.assert.strictEqual(r.statusCodes['200'], 50)
  t.assert.strictEqual(r.non2xx + r.errors + r.timeouts + r.skipped, 0)
  const gaps = r.samples.slice(1).map((s, i) => s.t - r.samples[i].t)
  for (const g of gaps) t.assert.ok(Math.abs(g - 0.02) < 1e-6, `scheduled gap ${g}`)
  t.assert.ok(r.latencyMs.p50 > 0 && r.latencyMs.p99 >= r.latencyMs.p50 && r.latencyMs.count === 50)
})

test('pacedLoad reports non-2xx answers and socket errors instead of hiding them', async (t) => {
  const url = await server(t)
  const r = await h.pacedLoad({ target: url, path: '/flaky', rate: 40, seconds: 0.5 })
  t.assert.strictEqual(r.statusCodes['503'], 10)
  t.assert.strictEqual(r.non2xx, 10)
  t.assert.strictEqual(r.okLatencyMs.count, 10)
  const dead = await h.pacedLoad({ target: 'http://127.0.0.1:1/', rate: 20, seconds: 0.25 })
  t.assert.strictEqual(dead.errors, 5)
  t.assert.strictEqual(dead.completed, 0)
})

// A server in this process that resets connections: `which(n)` says whether the n-th request on a
// connection (1-based) is reset instead of answered.
function resettingServer (t, which) {
  return serveHere(t, (req, res) => {
    const n = (req.socket.served = (req.socket.served ?? 0) + 1)
    if (which(n)) return req.socket.resetAndDestroy()
    res.end('ok')
  })
}

test('pacedLoad sends a request again, once, when a reused keep-alive connection was reset before any answer', async (t) => {
  // Every connection's second request is reset: the race a server closing an idle connection causes.
  const url = await resettingServer(t, (n) => n === 2)
  const r = await h.pacedLoad({ target: url, rate: 20, seconds: 0.5 })
  t.assert.strictEqual(r.completed, 10)
  t.assert.strictEqual(r.errors, 0)
  t.assert.ok(r.retried >= 4, `retried ${r.retried}`)
})

test('pacedLoad counts other resets as errors, by code, without retrying them', async (t) => {
  const url = await resettingServer(t, () => true) // every request, on a fresh connection too
  const r = await h.pacedLoad({ target: url, rate: 20, seconds: 0.25 })
  t.assert.strictEqual(r.completed, 0)
  t.assert.strictEqual(r.errors, 5)
  t.assert.deepStrictEqual(r.errorCodes, { ECONNRESET: 5 })
  t.assert.strictEqual(r.retried, 0)
})

test('pacedLoad refuses non-loopback targets and unbounded loads before sending anything', async (t) => {
  await t.assert.rejects(h.pacedLoad({ target: 'http://10.0.0.8:3000/', rate: 10, seconds: 1 }), /only targets loopback/)
  await t.assert.rejects(h.pacedLoad({ target: 'http://127.0.0.1:1/', rate: 1e6, seconds: 10 }), /must stay bounded/)
  await t.assert.rejects(h.pacedLoad({ target: 'http://127.0.0.1:1/', rate: 0, seconds: 1 }), /rate must be > 0/)
})

test('contention: a blocking background route raises the cheap route tail; metrics are read', async (t) => {
  const url = await server(t)
  const res = await h.contentionRounds([
    { key: 'alone', target: url, cheap: { path: '/ok', rate: 100 }, background: null },
    { key: 'blocked', target: url, cheap: { path: '/ok', rate: 100 }, background: { path: '/slow', rate: 5 }, metrics: true }
  ], { rounds: 2, seconds: 1, warmupSeconds: 0.5 })
  t.assert.strictEqual(res.alone.runs.length, 2)
  t.assert.strictEqual(res.alone.background, null)
  t.assert.strictEqual(res.blocked.background.completed, 10)
  // 5 blocks of 40 ms a second: a fifth of the cheap requests wait behind one, so p90 shows it
  const [alone, blocked] = [res.alone.cheap.latencyMs, res.blocked.cheap.latencyMs]
  t.assert.ok(blocked.p90 > 10 && blocked.p90 > 3 * alone.p90, `alone ${JSON.stringify(alone)} blocked ${JSON.stringify(blocked)}`)
  const m = res.blocked.runs[0].metrics
  t.assert.strictEqual(m.info.test, true)
  t.assert.strictEqual(m.app, 'paced-target')
  t.assert.ok(m.histogram.max > 30, `loop delay max ${m.histogram.max}`)
  t.assert.strictEqual(res.alone.runs[0].metrics, null)
  await t.assert.rejects(h.contentionRounds([{ key: 'a', target: url }, { key: 'a', target: url }]), /unique/)
})

test('loopMetrics reads and resets /__metrics, and fails clearly on an app without it', async (t) => {
  const url = await server(t)
  await new Promise((resolve) => setTimeout(resolve, 100))
  const first = await h.loopMetrics(url, { reset: true })
  t.assert.strictEqual(first.resolutionMs, 10)
  t.assert.ok(first.histogram.count > 0)
  const after = await h.loopMetrics(url)
  t.assert.ok(after.elapsedMs < first.elapsedMs)
  t.assert.strictEqual(h.loopSeries(after).length, after.series.length + 1)
  const plain = await plainServer(t)
  await t.assert.rejects(h.loopMetrics(plain), /did not answer JSON/)
  await t.assert.rejects(h.loopMetrics('http://192.168.0.9/'), /only targets loopback/)
})

test('stampHeader sends when each request was due; loop-shedding-queue refuses what waited too long', async (t) => {
  // The header itself, as a plain server in this process receives it.
  const seen = []
  const url = await serveHere(t, (req, res) => { seen.push([req.headers['x-request-start'], performance.timeOrigin + performance.now()]); res.end('ok') })
  await h.pacedLoad({ target: url, rate: 20, seconds: 0.5, stampHeader: 'x-request-start' })
  t.assert.strictEqual(seen.length, 10)
  for (const [stamp, at] of seen) {
    t.assert.match(stamp, /^t=\d+\.\d{3}$/)
    const waited = at - Number(stamp.slice(2))
    t.assert.ok(waited > -2 && waited < 1000, `stamped ${waited} ms before it was read (a request may go out up to 1 ms before it is due)`)
  }
  // The app: a request stamped 100 ms ago has waited past its 25 ms (half of a 50 ms budget): 503.
  const app = await h.startApp('loop-shedding-queue', { env: { LATENCY_BUDGET_MS: '50' } })
  t.after(() => app.stop())
  const ask = (headers) => fetch(`${app.url}/cheap`, { headers }).then((r) => r.status)
  t.assert.strictEqual(await ask({ 'x-request-start': `t=${Date.now() - 100}` }), 503)
  t.assert.strictEqual(await ask({ 'x-request-start': `t=${Date.now()}` }), 200)
  t.assert.strictEqual(await ask({}), 200, 'no stamp: served')
  const info = (await (await fetch(`${app.url}/__metrics`)).json()).info
  // accepted and unstamped include startApp's probe of /cheap, sent without a stamp.
  t.assert.deepStrictEqual([info.maxWaitMs, info.shed, info.accepted, info.unstamped], [25, 1, 3, 2])
})
