'use strict'
// The same GET /seed/v1 on fastify 5, built to be as fast as it can honestly be:
//   - the seed data changes once a minute, when the minute timestamp `ts` changes, so
//     each url's JSON body is serialised once a minute and kept as a ready-made Buffer;
//   - the etag comes from the content (the minute and the start of the random data);
//   - If-None-Match with the current etag gets 304 Not Modified and no body.
// The payload keeps the shape of the restify servers: {data, url, ts}, with `data`
// 10,000 hex characters (5,000 random bytes).
const crypto = require('node:crypto')
const Fastify = require('fastify')
const { serveHttp } = require('../lib/contract')

const ONE_MINUTE = 60000
const MAX_CACHED_URLS = 1000 // a flood of distinct query strings must not grow memory

let minute = -1 // the ts the current data belongs to
let data = ''
let etag = ''
const bodies = new Map() // url -> Buffer with the JSON body, for the current minute

function bodyFor (url) {
  const ts = Math.floor(Date.now() / ONE_MINUTE) * ONE_MINUTE
  if (ts !== minute) {
    minute = ts
    data = crypto.randomBytes(5000).toString('hex')
    etag = `"${ts.toString(36)}-${data.slice(0, 16)}"`
    bodies.clear()
  }
  let body = bodies.get(url)
  if (body === undefined) {
    body = Buffer.from(`{"data":"${data}","url":${JSON.stringify(url)},"ts":${ts}}`)
    if (bodies.size < MAX_CACHED_URLS) bodies.set(url, body)
  }
  return body
}

const app = Fastify({ logger: false })

app.get('/seed/v1', function seed (request, reply) {
  const body = bodyFor(request.url) // also refreshes `etag` when the minute changes
  reply.header('cache-control', 'public, max-age=120')
  reply.header('etag', etag)
  if (request.headers['if-none-match'] === etag) {
    reply.code(304).send()
    return
  }
  reply.header('content-type', 'application/json; charset=utf-8')
  reply.send(body)
})

app.ready().then(() => serveHttp('etag-fastify', app.server), (err) => {
  process.stderr.write(`etag-fastify failed to start: ${err && err.stack}\n`)
  process.exit(1)
})
