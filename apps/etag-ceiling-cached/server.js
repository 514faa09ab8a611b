'use strict'
// The like-for-like ceiling of etag-fastify: plain node:http doing the same work per request,
// minus the framework. The content comes from ../etag-fastify/minute-body.js (data drawn once a
// minute, each url's JSON body serialised once a minute and kept as a Buffer, etag from the
// content); the same headers; If-None-Match with the current etag gets 304 Not Modified.
// Anything but GET /seed/v1 (a query string is allowed) answers 404.
const http = require('node:http')
const { serveHttp } = require('../lib/contract')
const { minuteBodies } = require('../etag-fastify/minute-body')

const current = minuteBodies()

const server = http.createServer(function seed(req, res) {
  const q = req.url.indexOf('?')
  const path = q === -1 ? req.url : req.url.slice(0, q)
  if (req.method !== 'GET' || path !== '/seed/v1') {
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('not found\n')
    return
  }
  const { body, etag } = current(req.url)
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { 'cache-control': 'public, max-age=120', etag })
    res.end()
    return
  }
  res.writeHead(200, {
    'cache-control': 'public, max-age=120',
    etag,
    'content-type': 'application/json; charset=utf-8',
    'content-length': body.length,
  })
  res.end(body)
})

serveHttp('etag-ceiling-cached', server)
