'use strict'
const { test } = require('node:test')
const h = require('@workbook/harness')
const hi = require('@workbook/harness/internal')
const { fixture, serveHere } = require('./helpers')
const { startApp } = require('./helpers').internal('apps/start')
const { loopMetrics } = require('./helpers').internal('load/loop-metrics')

// The target runs in its own process (tests/fixtures/apps/paced-target.js): a server in
// this process would block the generator along with itself.
async function server(t) {
  const app = await startApp({ entry: fixture('paced-target.js') }, { probe: '/ok' })
  t.after(() => app.stop())
  return app.url
}

// A server without /__metrics, in this process (it never blocks).
function plainServer(t) {
  return serveHere(t, (req, res) => res.end('ok'))
}

test('pacedLoad sends rate x seconds requests, evenly spaced, and times each one', async (t) => {
  const url = await server(t)
  const r = await hi.pacedLoad({ target: url, path: '/ok', rate: 50, seconds: 1 })
  t.assert.strictEqual(r.due, 50)
  t.assert.strictEqual(r.totalRequests, 50)
  t.assert.strictEqual(r.statusCodes['200'], 50)
  t.assert.strictEqual(r.non2xx + r.errors + r.timeouts + r.skipped, 0)
  const gaps = r.samples.slice(1).map((s, i) => s.t - r.samples[i].t)
  for (const g of gaps) t.assert.ok(Math.abs(g - 0.02) < 1e-6, `scheduled gap ${g}`)
  t.assert.ok(r.latencyMs.p50 > 0 && r.latencyMs.p99 >= r.latencyMs.p50 && r.latencyMs.count === 50)
})

test('pacedLoad asks a name never asked before on every request where its path has {name}', async (t) => {
  const asked = []
  const url = await serveHere(t, (req, res) => {
    asked.push(req.url)
    res.end('ok')
  })
  const r = await hi.pacedLoad({ target: url, path: '/report?user={name}', rate: 40, seconds: 0.25 })
  t.assert.strictEqual(r.totalRequests, 10)
  t.assert.strictEqual(new Set(asked).size, 10, asked.join(' '))
  for (const u of asked) t.assert.match(u, /^\/report\?user=[a-z]+$/)
  const plain = []
  const same = await serveHere(t, (req, res) => {
    plain.push(req.url)
    res.end('ok')
  })
  await hi.pacedLoad({ target: same, path: '/ok', rate: 40, seconds: 0.1 })
  t.assert.deepStrictEqual(new Set(plain), new Set(['/ok']))
})

test('pacedLoad never times a request from before it was sent: a timer that wakes early does not make latency negative', async (t) => {
  const url = await serveHere(t, (req, res) => res.end('ok'))
  const r = await hi.pacedLoad({ target: url, rate: 200, seconds: 0.5 })
  const lows = r.samples
    .map((s) => s.latencyMs)
    .sort((a, b) => a - b)
    .slice(0, 5)
  t.assert.ok(lows[0] > 0, `the shortest latencies: ${lows.join(', ')} ms`)
})

test('pacedLoad reports non-2xx answers and socket errors instead of hiding them', async (t) => {
  const url = await server(t)
  const r = await hi.pacedLoad({ target: url, path: '/flaky', rate: 40, seconds: 0.5 })
  t.assert.strictEqual(r.statusCodes['503'], 10)
  t.assert.strictEqual(r.non2xx, 10)
  t.assert.strictEqual(r.okLatencyMs.count, 10)
  const byStatus = Object.fromEntries(Object.entries(r.statusLatencyMs).map(([code, l]) => [code, l.count]))
  t.assert.deepStrictEqual(byStatus, { 200: 10, 503: 10 }, "each status's answers, timed apart")
  const dead = await hi.pacedLoad({ target: 'http://127.0.0.1:1/', rate: 20, seconds: 0.25 })
  t.assert.strictEqual(dead.errors, 5)
  t.assert.strictEqual(dead.totalRequests, 0)
})

// A server in this process that resets connections: `which(n)` says whether the n-th request on a
// connection (1-based) is reset instead of answered.
function resettingServer(t, which) {
  return serveHere(t, (req, res) => {
    req.socket.served = (req.socket.served ?? 0) + 1
    if (which(req.socket.served)) return req.socket.resetAndDestroy()
    res.end('ok')
  })
}

test('pacedLoad sends a request again, once, when a reused keep-alive connection was reset before any answer', async (t) => {
  // Every connection's second request is reset: the race a server closing an idle connection causes.
  const url = await resettingServer(t, (n) => n === 2)
  const r = await hi.pacedLoad({ target: url, rate: 20, seconds: 0.5 })
  t.assert.strictEqual(r.totalRequests, 10)
  t.assert.strictEqual(r.errors, 0)
  t.assert.ok(r.retried >= 4, `retried ${r.retried}`)
})

test('pacedLoad counts other resets as errors, by code, without retrying them', async (t) => {
  const url = await resettingServer(t, () => true) // every request, on a fresh connection too
  const r = await hi.pacedLoad({ target: url, rate: 20, seconds: 0.25 })
  t.assert.strictEqual(r.totalRequests, 0)
  t.assert.strictEqual(r.errors, 5)
  t.assert.deepStrictEqual(r.errorCodes, { ECONNRESET: 5 })
  t.assert.strictEqual(r.retried, 0)
})

test('pacedLoad refuses non-loopback targets and unbounded loads before sending anything', async (t) => {
  await t.assert.rejects(
    hi.pacedLoad({ target: 'http://10.0.0.8:3000/', rate: 10, seconds: 1 }),
    /only targets loopback/,
  )
  await t.assert.rejects(hi.pacedLoad({ target: 'http://127.0.0.1:1/', rate: 1e6, seconds: 10 }), /must stay bounded/)
  await t.assert.rejects(hi.pacedLoad({ target: 'http://127.0.0.1:1/', rate: 0, seconds: 1 }), /rate must be > 0/)
})

test('loopMetrics reads and resets /__metrics, and fails clearly on an app without it', async (t) => {
  const url = await server(t)
  await new Promise((resolve) => setTimeout(resolve, 300)) // so that one round trip, even on a busy machine, is shorter
  const first = await loopMetrics(url, { reset: true })
  t.assert.strictEqual(first.resolutionMs, 10)
  t.assert.ok(first.histogram.count > 0)
  const { processMs, mainThreadMs } = first.cpu
  t.assert.ok(
    mainThreadMs >= 0 && processMs >= mainThreadMs,
    `CPU ms: process ${processMs}, main thread ${mainThreadMs}`,
  )
  const after = await loopMetrics(url)
  t.assert.ok(
    after.elapsedMs < first.elapsedMs,
    `since the reset ${after.elapsedMs} ms, before it ${first.elapsedMs} ms`,
  )
  t.assert.ok(Array.isArray(after.series) && after.current.t > 0, 'the rows, and the unfinished interval beside them')
  const plain = await plainServer(t)
  await t.assert.rejects(loopMetrics(plain), /did not answer JSON/)
  await t.assert.rejects(loopMetrics('http://192.168.0.9/'), /only targets loopback/)
})

test('stampHeader sends when each request was due; loop-shedding-queue refuses what waited too long', async (t) => {
  // The header itself, as a plain server in this process receives it.
  const seen = []
  const url = await serveHere(t, (req, res) => {
    seen.push([req.headers['x-request-start'], performance.timeOrigin + performance.now()])
    res.end('ok')
  })
  await hi.pacedLoad({ target: url, rate: 20, seconds: 0.5, stampHeader: 'x-request-start' })
  t.assert.strictEqual(seen.length, 10)
  for (const [stamp, at] of seen) {
    t.assert.match(stamp, /^t=\d+\.\d{3}$/)
    const waited = at - Number(stamp.slice(2))
    t.assert.ok(
      waited > -2 && waited < 1000,
      `stamped ${waited} ms before it was read (a request may go out up to 1 ms before it is due)`,
    )
  }
  // The app: a request stamped 100 ms ago has waited past its 25 ms (half of a 50 ms budget): 503.
  const app = await startApp('loop-shedding-queue', { env: { LATENCY_BUDGET_MS: '50' } })
  t.after(() => app.stop())
  const ask = (headers) => fetch(`${app.url}/cheap`, { headers }).then((r) => r.status)
  t.assert.strictEqual(await ask({ 'x-request-start': `t=${Date.now() - 100}` }), 503)
  t.assert.strictEqual(await ask({ 'x-request-start': `t=${Date.now()}` }), 200)
  t.assert.strictEqual(await ask({}), 200, 'no stamp: served')
  const info = (await (await fetch(`${app.url}/__metrics`)).json()).info
  // accepted and unstamped include startApp's probe of /cheap, sent without a stamp.
  t.assert.deepStrictEqual([info.maxWaitMs, info.shed, info.accepted, info.unstamped], [25, 1, 3, 2])
})

// --- Planning a load from a measurement (no load is sent below).

test('rateForShare: share x 1000 / ms per request, two significant digits; bad input and empty runs refused', (t) => {
  t.assert.strictEqual(h.rateForShare(0.4, 110), 3.6)
  t.assert.strictEqual(h.rateForShare(2, 109), 18)
  t.assert.strictEqual(h.rateForShare(0.7, 60), 12)
  t.assert.throws(() => h.rateForShare(0, 100), /share must be > 0/)
  t.assert.throws(() => h.rateForShare(0.4, NaN), /costMs must be > 0/)
  t.assert.throws(() => h.rateForShare(0.4, 5000, { seconds: 3 }), /fewer than 1 request/)
  t.assert.strictEqual(h.rateForShare(0.4, 1000, { seconds: 3 }), 0.4)
})

test('groupedBars fits its longest label and draws a log axis by decade; percentileBars draws spreads and n/a', (t) => {
  const long = 'overload: shedding on loop delay, accepted + /expensive 18/s'
  const chart = h.groupedBars(
    [
      { label: long, series: 'p99', value: 110, min: 95, max: 115 },
      { label: 'alone', series: 'p99', value: 1.8 },
    ],
    { title: 'x', unit: 'ms', log: true, reference: 50 },
  )
  t.assert.ok(chart.width > 640, `a long label widens the chart (${chart.width})`)
  t.assert.match(chart.svg, /overload: shedding on loop delay, accepted \+ \/expensive 18\/s/)
  t.assert.match(chart.svg, />1<\/text><text[^>]*>10<\/text><text[^>]*>100</, 'one tick label per decade')
  t.assert.match(chart.svg, /stroke-dasharray="4,3"/)
  const p = h.percentileBars([{ label: 'a', p50: { median: 1, min: 0.5, max: 2 }, p90: NaN, p99: 3 }], { title: 'y' })
  t.assert.match(p.text, /n\/a/)
  t.assert.match(p.text, /a\s+p50\s+1\s+0\.50\s+2/, 'p50 with its whisker from min to max')
  // A log axis starts a decade below the smallest value, so a smallest value of exactly 10 still gets a bar.
  const decade = h.groupedBars(
    [
      { label: 'a', series: 's', value: 10 },
      { label: 'b', series: 's', value: 1000 },
    ],
    { title: 'z', unit: 'ms', log: true },
  )
  const bars = decade.svg.slice(decade.svg.indexOf('aria-label="bar"')).split('aria-label="text"')[0]
  t.assert.strictEqual(
    (bars.match(/<rect x="[\d.]+" width="[1-9][\d.]*"/g) || []).length,
    2,
    'both bars drawn with a length',
  )
})

test('timeRoute times a route alone, a fresh name per {name}, and refuses a failing one; withApps refuses duplicate keys before starting anything', async (t) => {
  const asked = []
  const url = await serveHere(t, (req, res) => {
    asked.push(req.url)
    if (req.url === '/bad') {
      res.statusCode = 500
      return res.end('broken')
    }
    setTimeout(() => res.end(JSON.stringify({ workMs: 20 })), 20)
  })
  const r = await h.timeRoute(url, '/slow', { repeats: 3 })
  t.assert.strictEqual(r.ms.runs.length, 3)
  t.assert.ok(r.ms.min >= 19, `each request took the 20 ms it waits (${r.ms.runs})`)
  t.assert.deepStrictEqual(r.bodies[0], { workMs: 20 })
  asked.length = 0
  const named = await h.timeRoute(url, '/report?user={name}', { repeats: 2 })
  t.assert.strictEqual(named.path, '/report?user={name}')
  t.assert.strictEqual(new Set(asked).size, 3, `one untimed and two timed, each for a new name: ${asked}`)
  for (const u of asked) t.assert.match(u, /^\/report\?user=[a-z]{1,20}$/)
  await t.assert.rejects(h.timeRoute(url, '/bad'), /answered 500: broken/)
  await t.assert.rejects(h.timeRoute('http://10.0.0.8/', '/'), /only targets loopback/)
  await t.assert.rejects(
    h.withApps(['loop-blocking', 'loop-blocking'], async () => 1),
    /keys must be unique/,
  )
})
