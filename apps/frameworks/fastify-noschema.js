'use strict'
// fastify 5 without schemas: the same routes as fastify.js, serialised with JSON.stringify.
// The difference between the two apps is the price (or the gain) of response schemas.
const Fastify = require('fastify')
const { HOST, port, announce, onShutdown } = require('../lib/contract')
const { HELLO_TEXT, helloObject, blogPost } = require('./lib/payloads')

const app = Fastify({ logger: false })

app.get('/hello', (request, reply) => {
  reply.send(HELLO_TEXT)
})
app.get('/json', (request, reply) => {
  reply.send(helloObject())
})
app.get('/blog', (request, reply) => {
  reply.send(blogPost())
})

async function main() {
  await app.listen({ port: port(), host: HOST })
  announce('fastify-noschema', app.server.address().port)
  onShutdown(() => app.close())
}

main().catch((err) => {
  process.stderr.write(`${err.stack}\n`)
  process.exit(1)
})
