'use strict'
// fastify 5, the idiomatic way: response schemas, so fast-json-stringify serialises /json and
// /blog instead of JSON.stringify. POST /validate checks its body against a JSON schema with
// fastify's built-in Ajv validation; VALIDATE=0 removes the body schema (the JSON body is
// still parsed) so the price of validation can be measured. fastify-noschema.js is the same
// app without any schema. Handlers call reply.send() as fastify/benchmarks does; an async
// handler would be just as idiomatic and costs one promise per request.
const Fastify = require('fastify')
const { HOST, port, announce, onShutdown } = require('../lib/contract')
const { HELLO_TEXT, helloObject, blogPost, schemas, validationEnabled } = require('./lib/payloads')

const validate = validationEnabled()
const app = Fastify({ logger: false })

// A string reply is sent as it is (text/plain), so /hello has nothing to serialise and no schema.
app.get('/hello', (request, reply) => {
  reply.send(HELLO_TEXT)
})
app.get('/json', { schema: { response: { 200: schemas.json } } }, (request, reply) => {
  reply.send(helloObject())
})
app.get('/blog', { schema: { response: { 200: schemas.blog } } }, (request, reply) => {
  reply.send(blogPost())
})

const validateSchema = { response: { 200: schemas.ok } }
if (validate) validateSchema.body = schemas.validateBody
app.post('/validate', { schema: validateSchema }, (request, reply) => {
  reply.send({ ok: true })
})

async function main() {
  await app.listen({ port: port(), host: HOST })
  announce('fastify', app.server.address().port, { validate })
  onShutdown(() => app.close())
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`)
  process.exit(1)
})
