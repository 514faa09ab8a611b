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
//
// HELLO=static answers GET /hello with Elysia's static response: the route is given the value, not
// a handler (`.get('/hello', 'Hello, World!')`), and on Bun Elysia hands it to Bun's own router as a
// ready-made Response (a static route), so no JavaScript of the app runs per request. That is how the
// Elysia-vs-Encore post's bare test answered (its app: `{ message: 'Hello, World' }`); the text stays
// the workbook's. On Bun the answer differs by its headers only: `text/plain;charset=utf-8`, and an
// `etag` that Bun adds to every static route. On Node (no static routes) Elysia returns the value.
const { Elysia, t } = require('elysia')
const { HOST, port, announce, onShutdown } = require('../lib/contract')
const { onBun, serveFetch } = require('./lib/serve-fetch')
const { typeboxBody } = require('./lib/body-validators')
const { HELLO_TEXT, helloObject, blogPost, validationEnabled } = require('./lib/payloads')

const validate = validationEnabled()
const staticHello = process.env.HELLO === 'static'
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
  .get(
    '/hello',
    staticHello
      ? HELLO_TEXT
      : ({ set }) => {
          // A string is sent as text/plain on the wire by Bun, but without the header in the Response
          // object; naming the type keeps the answer the same on every server.
          set.headers['content-type'] = 'text/plain; charset=utf-8'
          return HELLO_TEXT
        },
  )
  .get('/json', () => helloObject())
  .get('/blog', () => blogPost())
  .post('/validate', ({ body }) => (body === undefined ? { ok: false } : { ok: true }), validate ? { body } : {})

if (onBun) {
  app.listen({ port: port(), hostname: HOST }, (server) =>
    announce('elysia', server.port, { server: 'Bun.serve', validate, hello: staticHello ? 'static' : 'handler' }),
  )
  onShutdown(() => app.stop(true))
} else {
  serveFetch('elysia', app.fetch, { validate, hello: staticHello ? 'static' : 'handler' })
}
