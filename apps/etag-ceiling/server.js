'use strict'
// The like-for-like ceiling of etag-optimised: plain node:http doing the same work per
// request, minus restify. The same content ({data, url, ts}, data = 10,000 hex characters of
// 5,000 random bytes, drawn once) handed back through setImmediate, the JSON built as a string,
// the etag from the content and the minute, the url as the key of a Map of current etags, the
// same headers, and If-None-Match with the url's current etag gets 304 Not Modified. Anything
// but GET /seed/v1 (a query string is allowed) answers 404.
const http = require('node:http')
const { serveHttp } = require('../lib/contract')
// etag-optimised's own content, timestamp, etag and setImmediate (../etag-optimised/util.js).
const { etagOf, timestamp, fetchContent } = require('../etag-optimised/util')()

// url -> etag of the latest body sent for it (unbounded, as in etag-optimised/util.js).
const current = new Map()

const server = http.createServer(function seed(req, res) {
  const q = req.url.indexOf('?')
  const path = q === -1 ? req.url : req.url.slice(0, q)
  if (req.method !== 'GET' || path !== '/seed/v1') {
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('not found\n')
    return
  }
  const known = current.get(req.url)
  if (known !== undefined && req.headers['if-none-match'] === known) {
    res.writeHead(304, { 'cache-control': 'public, max-age=120', etag: known })
    res.end()
    return
  }
  fetchContent(req.url, (_err, content) => {
    const ts = timestamp()
    const etag = etagOf(ts)
    const body = `{"data":"${content}","url":${JSON.stringify(req.url)},"ts":${ts}}`
    current.set(req.url, etag)
    res.writeHead(200, {
      'cache-control': 'public, max-age=120',
      etag,
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    })
    res.end(body)
  })
})

serveHttp('etag-ceiling', server)
