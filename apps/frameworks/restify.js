'use strict'
// restify 12 (its package.json asks for Node >= 22; checked on Node 22, 24 and 26).
// No plugins are registered, so no body parser, no query parser, no audit logger.
const restify = require('restify')
const { serveHttp } = require('../lib/contract')
const { HELLO_TEXT, helloObject, blogPost } = require('./lib/payloads')

const server = restify.createServer({ name: 'workbook' })

server.get('/hello', (req, res, next) => {
  res.header('content-type', 'text/plain; charset=utf-8')
  res.send(HELLO_TEXT)
  next()
})
server.get('/json', (req, res, next) => {
  res.send(helloObject())
  next()
})
server.get('/blog', (req, res, next) => {
  res.send(blogPost())
  next()
})

// restify wraps a node:http server; listening on it directly is what server.listen() does.
serveHttp('restify', server.server)
