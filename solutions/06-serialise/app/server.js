'use strict'
// Exercise 06 · serialise faster.
//
//   GET /orders?customer=<1-999>   the customer's orders, oldest first: id, placedAt (ISO 8601),
//                                  status, currency, total and each line's price as "12.34"
//                                  strings, lines (sku, name, qty, price); never the internal
//                                  fields (_version, _audit). An unknown customer has no orders.
//   a customer that is not 1-999: 400;  any other path: 404
//
// Change ordersBody() and etagOf() (and the helpers they use): everything else is shared with the
// starting point and should stay as it is. The check compares your answers with the starting
// point's, byte for byte (the etag header aside).
const http = require('node:http')
const { serveHttp } = require('../../../apps/lib/contract')
const { byCustomer } = require('./orders')

const CUSTOMER = /^[1-9][0-9]{0,2}$/

// BEGIN SOLUTION
// HINT: Profile first (the notebook's first cells): how much of a request is ordersBody()?
// HINT: Notebook 05, section 4 (Serialisation): what sends JSON.stringify off V8's fast path, and what an etag costs; section 5 (a whole request), how much of a request each is.
// The orders never change after start-up, so their public view (plain objects, keys in the answer's
// order, placedAt and money already strings) is built once. JSON.stringify of plain data stays on
// V8's fast path (no replacer, no toJSON to call): on such data it beat fast-json-stringify here.
// The etag is the body's length and CRC-32 (native) instead of a sha512.
const zlib = require('node:zlib')

const money = (cents) => (cents / 100).toFixed(2)

function publicOrder(o) {
  return {
    id: o.id,
    customer: o.customer,
    placedAt: o.placedAt.toISOString(),
    status: o.status,
    currency: o.currency,
    lines: o.lines.map((l) => ({ sku: l.sku, name: l.name, qty: l.qty, price: money(l.price) })),
    total: money(o.total),
  }
}

const publicByCustomer = new Map([...byCustomer].map(([customer, list]) => [customer, list.map(publicOrder)]))

function ordersBody(customer) {
  const orders = publicByCustomer.get(customer) ?? []
  return JSON.stringify({ customer, count: orders.length, orders })
}

function etagOf(body) {
  return `"${body.length.toString(16)}-${zlib.crc32(body).toString(16)}"`
}
// END SOLUTION
// BEGIN STUB
// const crypto = require('node:crypto')
//
// // Money is kept in cents; the answer shows it as "12.34". Internal fields stay private.
// function publicFields(key, value) {
//   if (key.startsWith('_')) return undefined
//   if (key === 'total' || key === 'price') return (value / 100).toFixed(2)
//   return value
// }
//
// function ordersBody(customer) {
//   const orders = byCustomer.get(customer) ?? []
//   return JSON.stringify({ customer, count: orders.length, orders }, publicFields)
// }
//
// function etagOf(body) {
//   return `"${crypto.createHash('sha512').update(body).digest('base64')}"`
// }
// END STUB

function send(res, status, type, body, headers = {}) {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body), ...headers })
  res.end(body)
}

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost')
  if (req.method !== 'GET' || url.pathname !== '/orders') {
    send(res, 404, 'text/plain; charset=utf-8', 'Not Found')
    return
  }
  const customer = url.searchParams.get('customer') ?? ''
  if (!CUSTOMER.test(customer)) {
    send(res, 400, 'application/json; charset=utf-8', JSON.stringify({ error: 'customer must be 1-999' }))
    return
  }
  const body = ordersBody(Number(customer))
  send(res, 200, 'application/json; charset=utf-8', body, { etag: etagOf(body) })
})

serveHttp('06-serialise', server)
