'use strict'
// Notebook 05, step 5: a small shop API AFTER the two micro-wins: a schema serialiser and a CRC-32 etag.
// apps/shop-before and apps/shop-after differ in the two lines marked "the micro-wins" only.
//   GET /products/<id>, GET /products?page=<n>: JSON, with an etag; If-None-Match answers 304.
const http = require('node:http')
const { serveHttp } = require('../lib/contract')
const { route } = require('../lib/shop')
const work = require('../lib/shop-work')

const serialise = work.schemaBody // the micro-wins
const etagOf = work.crc32Etag // the micro-wins

const server = http.createServer((req, res) => {
  const found = req.method === 'GET' ? route(req.url) : null
  if (found === null) {
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('not found\n')
    return
  }
  const body = serialise(found)
  const etag = etagOf(body)
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { etag })
    res.end()
    return
  }
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), etag })
  res.end(body)
})

serveHttp('shop-after', server)
