'use strict'
// The seed server without its etagger: one route, GET /seed/v1, answering
//   {"data": <10,000 hex chars, fresh per request>, "url": <req.url>, "ts": <minute timestamp>}
// etag-slow, etag-fixed and etag-warning all build their server here and differ only in
// the util.js (the etagger) they pass in.
const crypto = require('node:crypto')
const restify = require('restify')

const ONE_MINUTE = 60000

function timestamp() {
  return Math.floor(Date.now() / ONE_MINUTE) * ONE_MINUTE
}

function fetchContent() {
  return crypto.randomBytes(5000).toString('hex')
}

function createServer(name, { etagger }) {
  const server = restify.createServer({
    name,
    // restify logs with pino, to stdout by default; the app contract keeps stdout for the
    // one "listening" line, so warnings and errors go to stderr instead.
    log: restify.logger({ name, level: 'warn' }, restify.logger.destination(2)),
  })

  server.use(etagger().bind(server))

  server.get('/seed/v1', function seed(req, res, next) {
    res.send({ data: fetchContent(), url: req.url, ts: timestamp() })
    next()
  })

  return server
}

module.exports = { createServer, timestamp, fetchContent }
