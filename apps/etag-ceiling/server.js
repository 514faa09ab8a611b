'use strict'
// The ceiling: node:http alone serving the same GET /seed/v1 payload as the etag servers
// ({data, url, ts}, data = 10,000 hex characters of fresh random bytes per request), with
// no framework and no etag. No restify etag server can be faster than this one.
const crypto = require('node:crypto')
const http = require('node:http')
const { serveHttp } = require('../lib/contract')

const ONE_MINUTE = 60000

function timestamp () {
  return Math.floor(Date.now() / ONE_MINUTE) * ONE_MINUTE
}

const server = http.createServer(function seed (req, res) {
  // the route is the path; a query string is allowed, as restify allows it
  const q = req.url.indexOf('?')
  const path = q === -1 ? req.url : req.url.slice(0, q)
  if (req.method !== 'GET' || path !== '/seed/v1') {
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('not found\n')
    return
  }
  const data = crypto.randomBytes(5000).toString('hex')
  const body = `{"data":"${data}","url":${JSON.stringify(req.url)},"ts":${timestamp()}}`
  res.writeHead(200, {
    'content-type': 'application/json',
    'content-length': Buffer.byteLength(body)
  })
  res.end(body)
})

serveHttp('etag-ceiling', server)
