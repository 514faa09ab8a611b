'use strict'
// The Hono app of hono.js, served the way Hono is served on Bun: app.fetch handed to Bun.serve,
// with no node:http adaptor in between (hono.js measures Hono on Node, adaptor included).
// Started on Node, it falls back to @hono/node-server (lib/serve-fetch.js) and is then the
// same as hono.js; the notebooks measure it on Bun.
const { Hono } = require('hono')
const { serveFetch } = require('./lib/serve-fetch')
const { HELLO_TEXT, helloObject, blogPost } = require('./lib/payloads')

const app = new Hono()

app.get('/hello', (c) => c.text(HELLO_TEXT))
app.get('/json', (c) => c.json(helloObject()))
app.get('/blog', (c) => c.json(blogPost()))

serveFetch('hono-bun', app.fetch)
