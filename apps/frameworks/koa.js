'use strict'
// koa 3 with no router package: one middleware that switches on ctx.path. That is all three
// fixed routes need, and it keeps @koa/router (not a dependency of the workbook) out of the
// comparison, so this app measures koa's core and is listed with router: false.
// Leaving ctx.body unset makes koa answer 404 Not Found.
const http = require('node:http')
const Koa = require('koa')
const { serveHttp } = require('../lib/contract')
const { HELLO_TEXT, helloObject, blogPost } = require('./lib/payloads')

const app = new Koa()

app.use((ctx) => {
  if (ctx.method !== 'GET') return
  switch (ctx.path) {
    case '/hello':
      ctx.body = HELLO_TEXT // a string body is sent as text/plain
      break
    case '/json':
      ctx.body = helloObject()
      break
    case '/blog':
      ctx.body = blogPost()
      break
  }
})

serveHttp('koa', http.createServer(app.callback()))
