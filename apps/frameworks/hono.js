'use strict'
// hono 4 on Node through @hono/node-server: the adaptor turns each node:http request into a
// fetch Request and hono's Response back into a node:http reply; that conversion is part of
// what this app measures. On Bun or Deno the same Hono app would be served without it.
const { Hono } = require('hono')
const { createAdaptorServer } = require('@hono/node-server')
const { serveHttp } = require('../lib/contract')
const { HELLO_TEXT, helloObject, blogPost } = require('./lib/payloads')

const app = new Hono()

app.get('/hello', (c) => c.text(HELLO_TEXT))
app.get('/json', (c) => c.json(helloObject()))
app.get('/blog', (c) => c.json(blogPost()))

serveHttp('hono', createAdaptorServer({ fetch: app.fetch }))
