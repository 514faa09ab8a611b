'use strict'
// Exercise 03 · make a framework app faster.
//
//   GET /json    application/json; charset=utf-8   {"hello":"world"}
//   GET /hello   text/plain; charset=utf-8         Hello, World!
//   anything else                                  404
//
// The starting point is an express 5 app written the way many grow: every global middleware a
// tutorial suggested, a debugging aid left on, and a defensive copy in the handler. Make it
// faster with any framework in the workbook's node_modules (apps/frameworks/ has one app per
// framework, all keeping the app contract) or with none. The check compares the status, the
// content-type and the body of your answers with the starting point's: keep them identical.
const contract = require('../../../apps/lib/contract')

// BEGIN SOLUTION
// HINT: Which of these layers does a GET /json need at all? Remove one, measure, repeat (this notebook's section 1 measures express alone).
// HINT: Notebook 03, section 1 (The table, regenerated) measured the frameworks serving these very routes; apps/frameworks/ shows how each keeps the contract.
// fastify, with the response schema of /json (fast-json-stringify) and nothing else: no global
// middleware, no ETag, no audit log, no copy of a constant. Its default content-types are the
// ones express sent (application/json and text/plain, both with charset=utf-8), and an
// unknown route still answers 404.
const Fastify = require('fastify')

const app = Fastify({ logger: false })
const jsonSchema = { response: { 200: { type: 'object', properties: { hello: { type: 'string' } } } } }
app.get('/json', { schema: jsonSchema }, (request, reply) => { reply.send({ hello: 'world' }) })
app.get('/hello', (request, reply) => { reply.type('text/plain; charset=utf-8').send('Hello, World!') })

async function main () {
  await app.listen({ port: contract.port(), host: contract.HOST })
  contract.announce('03-faster-framework', app.server.address().port)
  contract.onShutdown(() => app.close())
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`)
  process.exit(1)
})
// END SOLUTION
// BEGIN STUB
// const http = require('node:http')
// const express = require('express')
//
// // What the app knows about itself, attached to every request "in case a handler needs it".
// const settings = {
//   service: 'greeter',
//   version: '3.14.0',
//   greeting: { hello: 'world' },
//   features: Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`feature${i}`, { enabled: i % 3 === 0, rollout: i / 200 }])),
// }
//
// // A debugging aid left on: every request, with its headers, serialised into an in-memory log.
// const auditLog = []
// function audit (req, res, next) {
//   auditLog.push(JSON.stringify({ at: new Date().toISOString(), method: req.method, url: req.url, headers: req.headers, settings: req.settings }))
//   if (auditLog.length > 1000) auditLog.shift()
//   next()
// }
//
// const app = express() // ETags on (express's default): every body is hashed
// app.use(express.json()) // body parsers on every route, though no route reads a body
// app.use(express.urlencoded({ extended: true }))
// app.use((req, res, next) => { req.settings = structuredClone(settings); next() })
// app.use(audit)
//
// // A defensive copy of the greeting, "so that no handler can change the settings".
// app.get('/json', (req, res) => { res.json(JSON.parse(JSON.stringify(req.settings.greeting))) })
// app.get('/hello', (req, res) => { res.type('text/plain').send('Hello, World!') })
//
// contract.serveHttp('03-faster-framework', http.createServer(app))
// END STUB
