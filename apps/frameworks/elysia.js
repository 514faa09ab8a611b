'use strict'
// Elysia 1.4, written for Bun: app.listen() on Bun (Elysia's Bun adapter, which compiles the
// handlers ahead of time and hands static routes to Bun's native router). Elysia on Node needs
// an adapter package the workbook does not install, so on Node this file serves app.fetch
// through @hono/node-server instead (lib/serve-fetch.js): it keeps the contract everywhere, but
// only the Bun figure is "Elysia as its users run it".
//
// POST /validate checks its body with a TypeBox schema (Elysia's `t`) built from
// schemas.validateBody of lib/payloads.js by lib/body-validators.js; VALIDATE=0 drops the schema.
// With the schema, Elysia (normalize: true, its default) also runs exact-mirror on the body before
// checking it: a compiled copy that keeps only the properties the schema names. That is part of
// what validation costs here, and what lib/validator-cost.js times as "typebox". The
// handler reads `body` in both modes, so that Elysia (which parses a body only when the handler
// or a schema uses it) parses the JSON either way, as fastify.js and express.js do. A failed
// validation answers 400 like the other two, instead of Elysia's default 422.
const { Elysia, t } = require('elysia')
const { HOST, port, announce, onShutdown } = require('../lib/contract')
const { onBun, serveFetch } = require('./lib/serve-fetch')
const { typeboxBody } = require('./lib/body-validators')
const { HELLO_TEXT, helloObject, blogPost, validationEnabled } = require('./lib/payloads')

const validate = validationEnabled()
const body = typeboxBody(t)

const app = new Elysia()
  // Registered before the routes: an Elysia hook applies to the routes declared after it.
  .onError(({ code, error, set }) => {
    if (code !== 'VALIDATION' && code !== 'PARSE') return
    set.status = 400
    return {
      ok: false,
      error: code === 'PARSE' ? 'body is not valid JSON' : `body${error.all[0].path} ${error.all[0].summary}`,
    }
  })
  .get('/hello', ({ set }) => {
    // A string is sent as text/plain on the wire by Bun, but without the header in the Response
    // object; naming the type keeps the answer the same on every server.
    set.headers['content-type'] = 'text/plain; charset=utf-8'
    return HELLO_TEXT
  })
  .get('/json', () => helloObject())
  .get('/blog', () => blogPost())
  .post('/validate', ({ body }) => (body === undefined ? { ok: false } : { ok: true }), validate ? { body } : {})

if (onBun) {
  app.listen({ port: port(), hostname: HOST }, (server) =>
    announce('elysia', server.port, { server: 'Bun.serve', validate }),
  )
  onShutdown(() => app.stop(true))
} else {
  serveFetch('elysia', app.fetch, { validate })
}
