'use strict'
// node:http with no framework: the baseline every framework is compared with.
// Routing is a switch on the path (the query string, if any, is ignored), as a framework-less
// server would do it; there is no router.
const http = require('node:http')
const { serveHttp } = require('../lib/contract')
const { HELLO_TEXT, helloObject, blogPost, randomNumber } = require('./lib/payloads')

function sendJson(res, value) {
  const body = JSON.stringify(value)
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

const server = http.createServer((req, res) => {
  const query = req.url.indexOf('?')
  const path = query === -1 ? req.url : req.url.slice(0, query)
  if (req.method === 'GET') {
    switch (path) {
      case '/hello':
        res.writeHead(200, {
          'content-type': 'text/plain; charset=utf-8',
          'content-length': Buffer.byteLength(HELLO_TEXT),
        })
        res.end(HELLO_TEXT)
        return
      case '/json':
        sendJson(res, helloObject())
        return
      case '/blog':
        sendJson(res, blogPost())
        return
      case '/random': // the 2016 Swift-vs-Node study's /json
        sendJson(res, randomNumber())
        return
    }
  }
  res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
  res.end('Not Found')
})

serveHttp('node-http', server)
