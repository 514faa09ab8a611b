'use strict'
// The like-for-like ceiling of etag-optimised: plain node:http doing the same work per
// request, minus restify. Fresh random data on every request ({data, url, ts}, data = 10,000
// hex characters of 5,000 random bytes), the JSON built as a string, the etag from the first
// 32 hex digits of data, the url as the key of a Map of current etags, the same headers, and
// If-None-Match with the url's current etag gets 304 Not Modified. Anything but GET /seed/v1
// (a query string is allowed) answers 404.
const http = require('node:http')
const { serveHttp } = require('../lib/contract')
const { randomHexSource } = require('../lib/random-hex')

const ONE_MINUTE = 60000

function timestamp() {
  return Math.floor(Date.now() / ONE_MINUTE) * ONE_MINUTE
}

// The same pooled random bytes as etag-optimised (../lib/random-hex.js).
const seedHex = randomHexSource(5000)

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
  const data = seedHex()
  const etag = `"${data.slice(0, 32)}"`
  const body = `{"data":"${data}","url":${JSON.stringify(req.url)},"ts":${timestamp()}}`
  current.set(req.url, etag)
  res.writeHead(200, {
    'cache-control': 'public, max-age=120',
    etag,
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body),
  })
  res.end(body)
})

serveHttp('etag-ceiling', server)
