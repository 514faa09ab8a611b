'use strict'
// The seed content that changes once a minute, shared by etag-fastify and its like-for-like
// ceiling etag-ceiling-cached, so the two do exactly the same work per request:
//   - `data` (10,000 hex characters of 5,000 random bytes) is drawn again only when the
//     minute timestamp `ts` changes;
//   - each url's JSON body {data, url, ts} is serialised once per minute and kept as a
//     ready-made Buffer (at most MAX_CACHED_URLS urls: a flood of distinct query strings
//     must not grow memory; the others are serialised per request);
//   - the etag comes from the content: "<ts in base 36>-<first 16 hex digits of data>".
const crypto = require('node:crypto')

const ONE_MINUTE = 60000
const MAX_CACHED_URLS = 1000

function minuteBodies() {
  let minute = -1 // the ts the current data belongs to
  let data = ''
  let etag = ''
  const bodies = new Map() // url -> Buffer with the JSON body, for the current minute

  // The current body for `url` and the etag of the current minute.
  return function current(url) {
    const ts = Math.floor(Date.now() / ONE_MINUTE) * ONE_MINUTE
    if (ts !== minute) {
      minute = ts
      data = crypto.randomBytes(5000).toString('hex')
      etag = `"${ts.toString(36)}-${data.slice(0, 16)}"`
      bodies.clear()
    }
    let body = bodies.get(url)
    if (body === undefined) {
      body = Buffer.from(`{"data":"${data}","url":${JSON.stringify(url)},"ts":${ts}}`)
      if (bodies.size < MAX_CACHED_URLS) bodies.set(url, body)
    }
    return { body, etag }
  }
}

module.exports = { minuteBodies }
