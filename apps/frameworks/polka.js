'use strict'
// polka 0.5 (the stable line; 1.0 is still a pre-release): a router (trouter) over node:http
// with no response helpers, so handlers write their own headers as in node-http.js.
const http = require('node:http')
const polka = require('polka')
const { serveHttp } = require('../lib/contract')
const { HELLO_TEXT, helloObject, blogPost } = require('./lib/payloads')

function sendJson(res, value) {
  const body = JSON.stringify(value)
  res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

const app = polka()
  .get('/hello', (req, res) => {
    res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(HELLO_TEXT) })
    res.end(HELLO_TEXT)
  })
  .get('/json', (req, res) => sendJson(res, helloObject()))
  .get('/blog', (req, res) => sendJson(res, blogPost()))

// polka's handler is bound in its constructor; unmatched paths get polka's own 404.
serveHttp('polka', http.createServer(app.handler))
