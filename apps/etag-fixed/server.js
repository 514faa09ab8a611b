'use strict'
// The slow etag server with one fix: util.js's guard now tests the flag it sets, so the
// 'after' listener is attached once instead of once per request. The route is shared with
// etag-slow (../etag-slow/app.js); `diff ../etag-slow/util.js util.js` shows the whole fix.
const { serveHttp } = require('../lib/contract')
const { createServer } = require('../etag-slow/app')
const util = require('./util')

serveHttp('etag-fixed', createServer('etag-fixed', util).server)
