'use strict'
// Exercise 01 · fix and optimise the etag server.
//
//   GET /seed/v1   application/json   {"data":"<10,000 hex chars, drawn once at start>","url":"/seed/v1","ts":<minute>}
//                  Cache-Control: public, max-age=120, and an Etag once the url has been served
//
// The seed server of "Keeping Node.js Fast" (notebook 01), in one file: restify 12, one route,
// and the etagger middleware with the bugs the article planted. It answers correctly, and gets
// slower with every request it serves. Find out why, fix it, then make it fast.
const crypto = require('node:crypto')
const restify = require('restify')
const contract = require('../../../apps/lib/contract')

// BEGIN SOLUTION
// HINT: What does this line hide? Remove it and run the app with --trace-warnings (notebook 01, step 5).
// END SOLUTION
// BEGIN STUB
// require('events').defaultMaxListeners = Infinity
// END STUB

const NAME = '01-etag'
const ONE_MINUTE = 60000

// The content: 5,000 random bytes as hex, drawn once; every answer carries it.
const content = crypto.randomBytes(5000).toString('hex')
let last = Date.now()

function timestamp () {
  const now = Date.now()
  if (now - last >= ONE_MINUTE) last = now
  return last
}

// The content, handed back on a later turn of the event loop, as a fetch from a store would be.
function fetchContent (url, cb) {
  setImmediate(() => cb(null, content))
}

// BEGIN SOLUTION
// HINT: Notebook 01, steps 4 and 5 (The flame graph; --trace-warnings): which function of this file is hottest, how often is it registered, and what does each call hash?
// HINT: Notebook 01, step 7 (Optimise): what the optimised server takes its etag from, and why that is enough.
// The cache key is the url itself, the etag comes from what the body is made of (see below),
// there is no 'after' listener any more, and a client presenting the current etag gets 304.
// `etagOf(url)` gives the etag of the body the url would be sent now, or undefined.
function etagger (etagOf) {
  return function etaggerMiddleware (req, res, next) {
    res.setHeader('Cache-Control', 'public, max-age=120')
    const etag = etagOf(req.url)
    if (etag !== undefined && req.headers['if-none-match'] === etag) {
      res.setHeader('Etag', etag)
      res.sendRaw(304, '')
      next(false)
      return
    }
    next()
  }
}
// END SOLUTION
// BEGIN STUB
// // Remembers an etag for each url and sets Etag and Cache-Control on the way out.
// function etagger () {
//   const cache = {}
//   let afterEventAttached = false
//
//   // Listen for restify's 'after' event (once), to learn the etag of each body sent.
//   function attachAfterEvent (server) {
//     if (attachAfterEvent === true) return
//     afterEventAttached = true
//     server.on('after', (req, res) => {
//       if (res.statusCode !== 200) return
//       if (!res._body) return // restify 12 keeps what the route passed to res.send() on res._body
//       const key = crypto.createHash('sha512').update(req.url).digest().toString('hex')
//       const etag = crypto.createHash('sha512')
//         .update(JSON.stringify(res._body))
//         .digest()
//         .toString('hex')
//       if (cache[key] !== etag) cache[key] = etag
//     })
//   }
//
//   return function (req, res, next) {
//     attachAfterEvent(this)
//     const key = crypto.createHash('sha512').update(req.url).digest().toString('hex')
//     if (key in cache) res.set('Etag', cache[key])
//     res.set('Cache-Control', 'public, max-age=120')
//     next()
//   }
// }
// END STUB

const server = restify.createServer({
  name: NAME,
  // restify logs to stdout by default; the app contract keeps stdout for the "listening" line.
  log: restify.logger({ name: NAME, level: 'warn' }, restify.logger.destination(2))
})

// BEGIN SOLUTION
// HINT: Notebook 01, step 6 (Fix, re-measure, profile again) shows what the fixed route still does for every response; step 7 (Optimise) and step 9 (Going further) what the faster servers do instead.
// Per url, the body changes only when the minute does: build it once a minute, as bytes, and send
// those (at most 1,000 urls kept: a flood of distinct query strings must not grow memory). The
// same map gives the etagger its etags: one entry per url, in one place.
const bodies = new Map() // url -> { ts, etag, body }

server.use(etagger((url) => {
  const known = bodies.get(url)
  return known !== undefined && known.ts === timestamp() ? known.etag : undefined
}))

function bodyFor (url, data, ts) {
  const known = bodies.get(url)
  if (known !== undefined && known.ts === ts) return known
  // The content's first 32 hex digits (128 random bits) and the minute make the etag. The hex needs
  // no JSON escaping: only the url goes through JSON.stringify.
  const made = {
    ts,
    etag: `"${data.slice(0, 32)}-${ts.toString(36)}"`,
    body: Buffer.from(`{"data":"${data}","url":${JSON.stringify(url)},"ts":${ts}}`)
  }
  if (known !== undefined || bodies.size < 1000) bodies.set(url, made)
  return made
}

server.get('/seed/v1', function seed (req, res, next) {
  fetchContent(req.url, (err, data) => {
    if (err) return next(err)
    const { etag, body } = bodyFor(req.url, data, timestamp())
    res.sendRaw(200, body, { 'Content-Type': 'application/json', 'Content-Length': body.length, Etag: etag })
    next()
  })
})
// END SOLUTION
// BEGIN STUB
// server.use(etagger().bind(server))
//
// server.get('/seed/v1', function (req, res, next) {
//   fetchContent(req.url, (err, data) => {
//     if (err) return next(err)
//     res.send({ data, url: req.url, ts: timestamp() })
//     next()
//   })
// })
// END STUB

contract.serveHttp(NAME, server.server)
