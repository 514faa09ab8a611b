'use strict'
// node:http answering GET /hello with `Hello, World!` (as apps/frameworks/node-http.js does), except
// that every STALL_EVERY-th request holds the thread for STALL_MS milliseconds before it answers:
// a stall such as a long garbage collection or a blocking call makes, rare and regular. While it
// lasts, every other connection's request waits too. Notebook 05 loads it with wrk and with
// autocannon at 10 connections and sets each one's mean latency beside Little's law's.
const http = require('node:http')
const { serveHttp } = require('../lib/contract')
const { HELLO_TEXT } = require('../frameworks/lib/payloads')

const setting = (name, fallback) => {
  const value = Number(process.env[name] ?? fallback)
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number >= 0, got ${process.env[name]}`)
  return value
}
const STALL_EVERY = setting('STALL_EVERY', 5000)
const STALL_MS = setting('STALL_MS', 100)

/** Holds the thread `ms` milliseconds: nothing else runs meanwhile. */
function stall(ms) {
  const end = performance.now() + ms
  while (performance.now() < end) {}
}

let served = 0
const server = http.createServer((req, res) => {
  if (req.method !== 'GET' || req.url !== '/hello') {
    res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' })
    res.end('Not Found')
    return
  }
  served += 1
  if (STALL_EVERY > 0 && served % STALL_EVERY === 0) stall(STALL_MS)
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8', 'content-length': Buffer.byteLength(HELLO_TEXT) })
  res.end(HELLO_TEXT)
})

serveHttp('hello-stalls', server, { stallEvery: STALL_EVERY, stallMs: STALL_MS })
