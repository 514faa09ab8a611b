'use strict'
// The validating Elysia app of the Elysia-vs-Encore benchmark (SaltyAom/encore-ts-benchmarks,
// requests/elysia-schema, 2025), rebuilt under the workbook's app contract. As published it has one
// route, POST /hello/:par1/:par2, answering {"message":"Hello, World"} once Elysia has checked the
// body, the query, the params and the x-foo header against the schemas below (the benchmark's, field
// for field). The benchmark's command for "with validation" posts to /schema?name=test&excitement=123,
// a path this app does not define: notebook 03 sends that request and the same one to the route that
// exists, and shows what each answers. Not in the app registry (it has no GET route to probe): the
// notebook starts it by its file, on Bun, as the benchmark ran it.
const { Elysia, t } = require('elysia')
const { HOST, port, announce, onShutdown } = require('../lib/contract')
const { onBun, serveFetch } = require('./lib/serve-fetch')

const body = t.Object(
  {
    someKey: t.Optional(t.String()),
    someOtherKey: t.Optional(t.Number()),
    requiredKey: t.Array(t.Integer(), { maxItems: 3 }),
    nullableKey: t.Union([t.Number(), t.Null()]),
    multipleTypesKey: t.Union([t.Boolean(), t.Number()]),
    multipleRestrictedTypesKey: t.Union([t.String({ maxLength: 5 }), t.Number({ minimum: 10 })]),
    enumKey: t.Union([t.Literal('John'), t.Literal('Foo')]),
  },
  { required: ['requiredKey'] },
)
const query = t.Object({ name: t.Optional(t.String()), excitement: t.Optional(t.String()) })
const params = t.Object({ par1: t.Optional(t.String()), par2: t.Optional(t.Number()) })
const headers = t.Object({ 'x-foo': t.String() }, { required: ['x-foo'] })

const app = new Elysia().post('/hello/:par1/:par2', () => ({ message: 'Hello, World' }), {
  body,
  query,
  params,
  headers,
})

if (onBun) {
  app.listen({ port: port(), hostname: HOST }, (server) =>
    announce('elysia-encore-schema', server.port, { server: 'Bun.serve' }),
  )
  onShutdown(() => app.stop(true))
} else {
  serveFetch('elysia-encore-schema', app.fetch)
}
