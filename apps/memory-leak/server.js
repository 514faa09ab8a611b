'use strict'
// Notebook 04's leaking app: answers like memory-reworked, and keeps an "audit record" of every
// request (its time, url and the answer it sent, parsed back into objects) in a module-level Map
// that nothing ever empties. About 50 KB of heap per request, forever.
const crypto = require('node:crypto')
const { reviewsServer } = require('../lib/reviews-server')
const { summaryByColumns } = require('../lib/reviews')

const audit = new Map()

reviewsServer('memory-leak', (product, req) => {
  const body = summaryByColumns(product)
  audit.set(crypto.randomUUID(), { at: Date.now(), url: req.url, answer: JSON.parse(body) })
  return body
})
