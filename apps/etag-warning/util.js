'use strict'
// The article's util.js, rebuilt for restify 12: a factory that app.js calls once. It draws the
// content once, when it runs, and returns the three things the server needs:
//   timestamp()            the time, moved on once a minute
//   etagger()              the middleware: an Etag for each url, and Cache-Control
//   fetchContent(url, cb)  the content, handed back on a later turn of the loop (setImmediate)
const crypto = require('node:crypto')

module.exports = () => {
  // 5,000 random bytes, drawn once: every answer carries the same 10,000 hex characters.
  // crypto.rng is the article's name: an old alias of crypto.randomBytes, deprecated (DEP0115)
  // and still there in Node 26.
  const content = crypto.rng(5000).toString('hex')
  const ONE_MINUTE = 60000
  let last = Date.now()

  function timestamp() {
    const now = Date.now()
    if (now - last >= ONE_MINUTE) last = now
    return last
  }

  function etagger() {
    const cache = {}
    let afterEventAttached = false

    // Listen for restify's 'after' event (once), to learn the etag of each body sent.
    function attachAfterEvent(server) {
      if (attachAfterEvent === true) return
      afterEventAttached = true
      server.on('after', (req, res) => {
        if (res.statusCode !== 200) return
        // restify 12 keeps what the route passed to res.send() on res._body
        // (Response.prototype.__send in restify/lib/response.js), as restify 7 did.
        if (!res._body) return
        const key = crypto.createHash('sha512').update(req.url).digest().toString('hex')
        const etag = crypto.createHash('sha512').update(JSON.stringify(res._body)).digest().toString('hex')
        if (cache[key] !== etag) cache[key] = etag
      })
    }

    return function (req, res, next) {
      attachAfterEvent(this)
      const key = crypto.createHash('sha512').update(req.url).digest().toString('hex')
      if (key in cache) res.set('Etag', cache[key])
      res.set('Cache-Control', 'public, max-age=120')
      next()
    }
  }

  function fetchContent(url, cb) {
    setImmediate(() => {
      if (!url.startsWith('/seed/v1')) cb(Object.assign(new Error('Not Found'), { statusCode: 404 }))
      else cb(null, content)
    })
  }

  return { timestamp, etagger, fetchContent }
}
