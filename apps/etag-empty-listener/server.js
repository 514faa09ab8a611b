'use strict'
// The slow etag server with its 'after' listener emptied (see
// `diff ../etag-slow/util.js util.js`): the article's experiment. If the listener's own work (two
// sha512 hashes and a JSON.stringify) were the whole problem, this server would not slow down as it
// serves. The route is shared with etag-slow.
const { serveHttp } = require('../lib/contract')
const { createServer } = require('../etag-slow/app')
const util = require('./util')

serveHttp('etag-empty-listener', createServer('etag-empty-listener', util).server)
