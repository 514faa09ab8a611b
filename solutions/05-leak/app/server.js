'use strict'
// Exercise 05 · find and fix a leak.
//
//   GET /quote?product=<0-199>   a price quote for the product (application/json): its price, the
//                                breakdown of that price, and the time until which it is valid
//                                (the end of the current minute)
//   a missing or bad product: 400;  any other path: 404
//
// Quotes are costly to build, so the server keeps them, meaning to reuse each one for the rest of its
// minute. The check compares your answers with the starting point's (their shape: the numbers depend
// on the minute) and measures how much heap is still alive after a fixed number of requests.
const http = require('node:http')
const { serveHttp } = require('../../../apps/lib/contract')

// The check sets the length of a minute (QUOTE_MINUTE_MS=50), so that its few seconds of load span
// many minutes, as a server running for hours would: anything of yours that depends on the minute
// should use ONE_MINUTE, never 60000 written out.
const ONE_MINUTE = Number(process.env.QUOTE_MINUTE_MS) || 60_000

// The quote for one product, valid until the end of `minute` (a costly computation, in real life).
function buildQuote(product, minute) {
  const breakdown = Array.from({ length: 200 }, (_, i) => ({
    line: i + 1,
    item: `part ${product}-${i}`,
    cost: ((product * 31 + i * 17) % 997) / 10,
    note: `supplier ${(product + i) % 13}, batch ${(product * i) % 101}, reviewed`,
  }))
  const price = Math.round(breakdown.reduce((sum, b) => sum + b.cost, 0) * 100) / 100
  return { product, price, validUntil: (minute + 1) * ONE_MINUTE, breakdown }
}

// BEGIN SOLUTION
// HINT: Run the notebook's memory cells first (notebook 04, sections 2 and 5, teach them): what grows, and what holds it?
// HINT: Notebook 04, section 6 (Fix and verify): a cache needs a key that repeats, and a bound that holds however long the app runs.
// One quote per product for the current minute: the key repeats for a whole minute, and quotes of
// earlier minutes are dropped when the minute changes, so the cache holds at most one quote per product.
const quotes = new Map()
let quotesMinute = -1

function quoteFor(product) {
  const minute = Math.floor(Date.now() / ONE_MINUTE)
  if (minute !== quotesMinute) {
    quotes.clear()
    quotesMinute = minute
  }
  let quote = quotes.get(product)
  if (!quote) {
    quote = buildQuote(product, minute)
    quotes.set(product, quote)
  }
  return quote
}
// END SOLUTION
// BEGIN STUB
// const quotes = new Map()
//
// function quoteFor(product) {
//   const minute = Math.floor(Date.now() / ONE_MINUTE)
//   const key = `${product}:${Date.now()}`
//   let quote = quotes.get(key)
//   if (!quote) {
//     quote = buildQuote(product, minute)
//     quotes.set(key, quote)
//   }
//   return quote
// }
// END STUB

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost')
  if (url.pathname !== '/quote') {
    res.writeHead(404, { 'content-type': 'text/plain' })
    res.end('not found\n')
    return
  }
  const product = Number(url.searchParams.get('product'))
  if (!url.searchParams.has('product') || !Number.isInteger(product) || product < 0 || product > 199) {
    res.writeHead(400, { 'content-type': 'text/plain' })
    res.end('product must be a whole number from 0 to 199\n')
    return
  }
  const body = JSON.stringify(quoteFor(product))
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
})

serveHttp('05-leak', server)
