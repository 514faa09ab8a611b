'use strict'
// Remedy 4, load shedding on each request's own wait: loop-blocking's very handler (same
// routes, same synchronous work), behind a check of how long the request has already waited.
// A proxy in front of an app stamps when it received each request (Heroku's router and nginx's
// $msec write `X-Request-Start: t=<ms>`); here the workbook's load generator does it. A request
// that has already waited more than MAX_WAIT_MS when the app reads it is answered 503 at once,
// with Retry-After, whatever the loop's state: its client's latency budget is already spent.
// The rest are served. /__metrics is never shed; a request without the header is served.
//
// MAX_WAIT_MS defaults to half of LATENCY_BUDGET_MS: the other half is headroom for the work
// itself and the trip back, so an accepted cheap request answers within the budget.
const http = require('node:http')
const { performance } = require('node:perf_hooks')
const { serveHttp } = require('../lib/contract')
const { attachLoopMetrics } = require('../lib/loop-metrics')
const { envInt, workConfig, blockingHandler } = require('../lib/loop-work')

const NAME = 'loop-shedding-queue'
const STAMP = 'x-request-start'
const work = workConfig()
const serve = blockingHandler(work)
const latencyBudgetMs = envInt('LATENCY_BUDGET_MS', 50)
const maxWaitMs = envInt('MAX_WAIT_MS', Math.floor(latencyBudgetMs / 2), 0)

// How long ago the request was stamped, in ms; null without a usable stamp.
function waitedMs(req) {
  const raw = req.headers[STAMP]
  if (typeof raw !== 'string') return null
  const stamped = Number(raw.startsWith('t=') ? raw.slice(2) : raw)
  return Number.isFinite(stamped) ? performance.timeOrigin + performance.now() - stamped : null
}

const counts = { accepted: 0, shed: 0, unstamped: 0 }

const server = http.createServer((req, res) => {
  const waited = waitedMs(req)
  if (waited === null) counts.unstamped++
  else if (waited > maxWaitMs) {
    counts.shed++
    res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' })
    res.end('Service Unavailable\n')
    return
  }
  counts.accepted++
  serve(req, res) // loop-blocking's handler: an accepted /expensive still blocks the loop for its whole work
})

const extra = {
  workRounds: work.rounds,
  workIterations: work.iterations,
  latencyBudgetMs,
  maxWaitMs,
  stampHeader: STAMP,
}
attachLoopMetrics(server, { name: NAME, info: () => ({ ...extra, ...counts }) })
serveHttp(NAME, server, extra)
