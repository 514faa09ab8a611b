'use strict'
// The same GET /seed/v1 on fastify 5, built to be as fast as it can honestly be:
//   - the seed data changes once a minute, when the minute timestamp `ts` changes, so
//     each url's JSON body is serialised once a minute and kept as a ready-made Buffer;
//   - the etag comes from the content (the minute and the start of the random data);
//   - If-None-Match with the current etag gets 304 Not Modified and no body.
// The payload keeps the shape of the restify servers: {data, url, ts}, with `data`
// 10,000 hex characters (5,000 random bytes). The content comes from ./minute-body.js,
// which ../etag-ceiling-cached (the same work on plain node:http) shares.
const Fastify = require('fastify')
const { serveHttp } = require('../lib/contract')
const { minuteBodies } = require('./minute-body')

const current = minuteBodies()
const app = Fastify({ logger: false })

app.get('/seed/v1', function seed(request, reply) {
  const { body, etag } = current(request.url)
  reply.header('cache-control', 'public, max-age=120')
  reply.header('etag', etag)
  if (request.headers['if-none-match'] === etag) {
    reply.code(304).send()
    return
  }
  reply.header('content-type', 'application/json; charset=utf-8')
  reply.send(body)
})

app.ready().then(
  () => serveHttp('etag-fastify', app.server),
  (err) => {
    process.stderr.write(`etag-fastify failed to start: ${err?.stack}\n`)
    process.exit(1)
  },
)
