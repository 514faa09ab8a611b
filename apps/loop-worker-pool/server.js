'use strict'
// Remedy 3, a worker pool: the same synchronous work as loop-blocking, run by a piscina
// pool of worker threads (worker.js). The main thread only posts a message and awaits
// the answer, so /cheap keeps being answered while the work runs.
//
// POOL_THREADS defaults to availableParallelism() - 1 (1 on the 2-core workbook machine):
// one core for the main thread, the rest for workers. More workers than cores make the
// workers compete with the main thread for CPU, which shows up in /cheap's latency again.
// Requests beyond the pool's capacity wait in piscina's queue, not in the event loop.
const http = require('node:http')
const os = require('node:os')
const path = require('node:path')
const { performance } = require('node:perf_hooks')
const { Piscina } = require('piscina')
const { HOST, port, announce, onShutdown, closeHttp } = require('../lib/contract')
const { attachLoopMetrics } = require('../lib/loop-metrics')
const { envInt, workConfig, CHEAP_BODY, sendJson, notFound, pathOf } = require('../lib/loop-work')

const NAME = 'loop-worker-pool'
const work = workConfig()
const poolThreads = envInt('POOL_THREADS', Math.max(1, os.availableParallelism() - 1))

const pool = new Piscina({
  filename: path.join(__dirname, 'worker.js'),
  minThreads: poolThreads, // start them all now: no thread start-up inside a measurement
  maxThreads: poolThreads,
  idleTimeout: Infinity,
})

const server = http.createServer((req, res) => {
  const route = req.method === 'GET' ? pathOf(req) : null
  if (route === '/cheap') return sendJson(res, 200, CHEAP_BODY)
  if (route === '/expensive') {
    const start = performance.now()
    pool.run(work).then(
      (digest) => sendJson(res, 200, { digest, ...work, workMs: Math.round(performance.now() - start) }),
      (err) => sendJson(res, 500, { error: err.message }),
    )
    return
  }
  notFound(res)
})

const extra = { workRounds: work.rounds, workIterations: work.iterations, poolThreads }
attachLoopMetrics(server, { name: NAME, info: () => ({ ...extra, queued: pool.queueSize, completed: pool.completed }) })
server.listen(port(), HOST, () => announce(NAME, server.address().port, extra))
onShutdown(async () => {
  await closeHttp(server)
  await pool.destroy()
})
