'use strict'
// Remedy 2, the libuv thread pool: the same PBKDF2 rounds as loop-blocking, but with the
// async crypto.pbkdf2, which runs each round on one of libuv's pool threads. The main
// thread only starts a round and receives its result.
//
// The pool has UV_THREADPOOL_SIZE threads (default 4, max 1024). libuv reads the variable
// once, when the pool is first used, so it must be set in the environment before start:
//   UV_THREADPOOL_SIZE=2 node apps/loop-libuv-crypto/server.js
// The same pool also serves fs.*, dns.lookup and zlib's async calls.
const http = require('node:http')
const crypto = require('node:crypto')
const { performance } = require('node:perf_hooks')
const { serveHttp } = require('../lib/contract')
const { attachLoopMetrics } = require('../lib/loop-metrics')
const {
  workConfig,
  FIRST_KEY,
  SALT,
  KEY_LENGTH,
  DIGEST,
  CHEAP_BODY,
  sendJson,
  notFound,
  pathOf,
} = require('../lib/loop-work')

const NAME = 'loop-libuv-crypto'
const work = workConfig()
// What libuv will do with the variable: unset -> 4; otherwise atoi(), 0 -> 1, capped at 1024.
const uvThreadpoolSize =
  process.env.UV_THREADPOOL_SIZE === undefined
    ? 4
    : Math.min(1024, Math.max(1, Number.parseInt(process.env.UV_THREADPOOL_SIZE, 10) || 0))

// The same rounds as workSync(); each round is one async pbkdf2 call, chained.
function workAsync({ rounds, iterations }, done) {
  let round = 0
  function next(err, key) {
    if (err) return done(err)
    if (round === rounds) return done(null, key.toString('hex'))
    round++
    crypto.pbkdf2(key, SALT, iterations, KEY_LENGTH, DIGEST, next)
  }
  next(null, FIRST_KEY)
}

const server = http.createServer((req, res) => {
  const path = req.method === 'GET' ? pathOf(req) : null
  if (path === '/cheap') return sendJson(res, 200, CHEAP_BODY)
  if (path === '/expensive') {
    const start = performance.now()
    workAsync(work, (err, digest) => {
      if (err) return sendJson(res, 500, { error: err.message })
      sendJson(res, 200, { digest, ...work, workMs: Math.round(performance.now() - start) })
    })
    return
  }
  notFound(res)
})

const extra = { workRounds: work.rounds, workIterations: work.iterations, uvThreadpoolSize }
attachLoopMetrics(server, { name: NAME, info: extra })
serveHttp(NAME, server, extra)
