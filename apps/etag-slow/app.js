'use strict'
// The article's index.js, rebuilt for restify 12: one route, GET /seed/v1, answering
//   {"data": <the content: 10,000 hex characters, the same in every answer>, "url": <req.url>, "ts": <timestamp()>}
// etag-slow, etag-fixed, etag-warning and etag-empty-listener all build their server here and
// differ only in the util.js they pass in (the factory of ./util.js).
const restify = require('restify')

function createServer(name, util) {
  const { etagger, timestamp, fetchContent } = util()
  const server = restify.createServer({
    name,
    // restify logs with pino, to stdout by default; the app contract keeps stdout for the
    // one "listening" line, so warnings and errors go to stderr instead.
    log: restify.logger({ name, level: 'warn' }, restify.logger.destination(2)),
  })

  server.use(etagger().bind(server))

  server.get('/seed/v1', (req, res, next) => {
    fetchContent(req.url, (err, content) => {
      if (err) return next(err)
      res.send({ data: content, url: req.url, ts: timestamp() })
      next()
    })
  })

  return server
}

module.exports = { createServer }
