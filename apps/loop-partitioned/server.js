'use strict'
// Remedy 1, partitioning: the same work as loop-blocking, but cut into chunks of
// CHUNK_ROUNDS rounds with setImmediate between them, so the event loop gets a turn (I/O,
// other requests, timers) after every chunk instead of once per whole /expensive.
const http = require('node:http')
const { performance } = require('node:perf_hooks')
const { serveHttp } = require('../lib/contract')
const { attachLoopMetrics } = require('../lib/loop-metrics')
const { envInt, workConfig, workRound, FIRST_KEY, CHEAP_BODY, sendJson, notFound, pathOf } = require('../lib/loop-work')

const NAME = 'loop-partitioned'
const work = workConfig()
const chunkRounds = envInt('CHUNK_ROUNDS', 1)

// The same rounds as workSync(), but yielding to the event loop after every chunk.
// setImmediate (not process.nextTick or a resolved promise, which run before I/O) lets
// the poll phase accept and answer other requests between two chunks.
function workPartitioned({ rounds, iterations }, done) {
  let key = FIRST_KEY
  let round = 0
  function chunk() {
    const end = Math.min(rounds, round + chunkRounds)
    for (; round < end; round++) key = workRound(key, iterations)
    if (round < rounds) setImmediate(chunk)
    else done(key.toString('hex'))
  }
  chunk()
}

const server = http.createServer((req, res) => {
  const path = req.method === 'GET' ? pathOf(req) : null
  if (path === '/cheap') return sendJson(res, 200, CHEAP_BODY)
  if (path === '/expensive') {
    const start = performance.now()
    workPartitioned(work, (digest) => {
      sendJson(res, 200, { digest, ...work, workMs: Math.round(performance.now() - start) })
    })
    return
  }
  notFound(res)
})

const extra = { workRounds: work.rounds, workIterations: work.iterations, chunkRounds }
attachLoopMetrics(server, { name: NAME, info: extra })
serveHttp(NAME, server, extra)
