'use strict'
// The slow etag server with the line that silenced Node's leak warning removed (see
// `diff ../etag-slow/util.js util.js`). Run it with `node --trace-warnings server.js`:
// from the 11th request on, stderr shows a MaxListenersExceededWarning whose stack points
// at the 'after' listener being added in util.js. The route is shared with etag-slow.
const { serveHttp } = require('../lib/contract')
const { createServer } = require('../etag-slow/app')
const util = require('./util')

serveHttp('etag-warning', createServer('etag-warning', util).server)
