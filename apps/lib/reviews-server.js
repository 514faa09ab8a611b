'use strict'
// The HTTP side shared by notebook 04's apps: GET /reviews?product=N answered by `summarise(product, req)`,
// 400 for a missing or bad product, 404 elsewhere. Each app passes its own way of computing the answer.
const http = require('node:http')
const { serveHttp } = require('./contract')
const { productOf } = require('./reviews')

function reviewsServer(name, summarise) {
  const server = http.createServer((req, res) => {
    if (!req.url.startsWith('/reviews')) {
      res.writeHead(404, { 'content-type': 'text/plain' })
      res.end('not found\n')
      return
    }
    const product = productOf(req.url)
    if (product === null) {
      res.writeHead(400, { 'content-type': 'text/plain' })
      res.end('product must be a number from 0 to 199\n')
      return
    }
    const body = summarise(product, req)
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    res.end(body)
  })
  return serveHttp(name, server)
}

module.exports = { reviewsServer }
