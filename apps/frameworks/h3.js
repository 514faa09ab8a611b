'use strict'
// h3 2 (ESM only; require() of an ES module needs Node 20.19+ or 22.12+): handlers return
// values, h3 turns a string into text/plain and an object into JSON. toNodeHandler from
// 'h3/node' (srvx underneath) adapts the app to node:http, as hono's adaptor does.
// h3's own serve() (srvx) would start its own server and print a banner unless `silent`;
// a plain node:http server keeps this app started and stopped like the others.
const http = require('node:http')
const { H3 } = require('h3')
const { toNodeHandler } = require('h3/node')
const { serveHttp } = require('../lib/contract')
const { HELLO_TEXT, helloObject, blogPost } = require('./lib/payloads')

const app = new H3()
  .get('/hello', () => HELLO_TEXT)
  .get('/json', () => helloObject())
  .get('/blog', () => blogPost())

serveHttp('h3', http.createServer(toNodeHandler(app)))
