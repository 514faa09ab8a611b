'use strict'
// The slow etag server of "Keeping Node.js Fast" (Smashing Magazine, 2018), rebuilt for
// restify 12. Something in util.js makes it slower with every request it serves.
const { serveHttp } = require('../lib/contract')
const { createServer } = require('./app')
const util = require('./util')

serveHttp('etag-slow', createServer('etag-slow', util).server)
