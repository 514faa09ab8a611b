'use strict'
// The etagger middleware for the seed server. Attach it with
//   server.use(etagger().bind(server))
// It remembers an etag for each url and sets Etag and Cache-Control on the way out.

const crypto = require('node:crypto')

function etagger() {
  const cache = {}
  let afterEventAttached = false

  // Listen for restify's 'after' event (once), to learn the etag of each body sent.
  function attachAfterEvent(server) {
    if (attachAfterEvent === true) return
    afterEventAttached = true
    server.on('after', function afterListener(req, res) {
      if (res.statusCode !== 200) return
      // restify 12 keeps what the route passed to res.send() on res._body
      // (Response.prototype.__send in restify/lib/response.js), as older restify did.
      if (!res._body) return
      const key = crypto.createHash('sha512').update(req.url).digest().toString('hex')
      const etag = crypto.createHash('sha512').update(JSON.stringify(res._body)).digest().toString('hex')
      if (cache[key] !== etag) cache[key] = etag
    })
  }

  return function etaggerMiddleware(req, res, next) {
    attachAfterEvent(this)
    const key = crypto.createHash('sha512').update(req.url).digest().toString('hex')
    if (key in cache) res.set('Etag', cache[key])
    res.set('Cache-Control', 'public, max-age=120')
    next()
  }
}

module.exports = { etagger }
