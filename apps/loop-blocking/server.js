'use strict'
// Head-of-line blocking: GET /expensive does ~60 ms of synchronous CPU work on the main
// thread, and every other request (GET /cheap, timers, /__metrics) waits behind it.
const http = require('node:http')
const { performance } = require('node:perf_hooks')
const { serveHttp } = require('../lib/contract')
const { attachLoopMetrics } = require('../lib/loop-metrics')
const { workConfig, workSync, CHEAP_BODY, sendJson, notFound, pathOf } = require('./shared')

const NAME = 'loop-blocking'
const work = workConfig()

const server = http.createServer((req, res) => {
  const path = req.method === 'GET' ? pathOf(req) : null
  if (path === '/cheap') return sendJson(res, 200, CHEAP_BODY)
  if (path === '/expensive') {
    const start = performance.now()
    const digest = workSync(work) // the whole event loop stops here
    return sendJson(res, 200, { digest, ...work, workMs: Math.round(performance.now() - start) })
  }
  notFound(res)
})

const extra = { workRounds: work.rounds, workIterations: work.iterations }
attachLoopMetrics(server, { name: NAME, info: extra })
serveHttp(NAME, server, extra)
