'use strict'
// Remedy 4, load shedding: loop-blocking's very handler (same routes, same synchronous
// work), behind overload-protection. When the event loop was late by more than MAX_DELAY_MS
// at its last check, every request (cheap or expensive) is answered 503 at once, with
// Retry-After, instead of being queued behind more blocking work. /__metrics is never shed.
//
// overload-protection checks with loopbench: a setInterval every SHED_SAMPLE_MS ms that
// measures how late it fired. After a block of B ms the first check reads about B ms, so the
// requests that piled up during the block are shed, until a check reads below the limit.
const http = require('node:http')
const protect = require('overload-protection')
const { serveHttp } = require('../lib/contract')
const { attachLoopMetrics } = require('../lib/loop-metrics')
const { envInt, workConfig, blockingHandler } = require('../lib/loop-work')

const NAME = 'loop-shedding'
const work = workConfig()
const serve = blockingHandler(work)
const maxDelayMs = envInt('MAX_DELAY_MS', 50)
const sampleIntervalMs = envInt('SHED_SAMPLE_MS', 5)

const shedIfOverloaded = protect('http', {
  maxEventLoopDelay: maxDelayMs,
  sampleInterval: sampleIntervalMs,
  clientRetrySecs: 1, // Retry-After: 1
  production: true, // 503 body is plain "Service Unavailable"
})

const counts = { accepted: 0, shed: 0 }

const server = http.createServer((req, res) => {
  if (shedIfOverloaded(req, res)) {
    // true: it has already answered 503
    counts.shed++
    return
  }
  counts.accepted++
  serve(req, res) // loop-blocking's handler: an accepted /expensive still blocks the loop for its whole work
})
server.once('close', () => shedIfOverloaded.stop())

const extra = { workRounds: work.rounds, workIterations: work.iterations, maxDelayMs, sampleIntervalMs }
attachLoopMetrics(server, {
  name: NAME,
  info: () => ({
    ...extra,
    ...counts,
    overloaded: shedIfOverloaded.overload,
    lastDelayMs: Math.round(shedIfOverloaded.eventLoopDelay * 1000) / 1000,
  }),
})
serveHttp(NAME, server, extra)
