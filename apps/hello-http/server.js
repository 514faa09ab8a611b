'use strict'
// The plainest possible server: node:http answering {"hello":"world"}.
// Used by notebook 00 and as the baseline every other app is compared with.
const http = require('node:http')
const { serveHttp } = require('../lib/contract')

const body = JSON.stringify({ hello: 'world' })

const server = http.createServer((req, res) => {
  if (req.url === '/' || req.url === '/hello') {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
    res.end(body)
    return
  }
  res.writeHead(404, { 'content-type': 'text/plain' })
  res.end('not found\n')
})

serveHttp('hello-http', server)
