'use strict'
// micro 10 has no router: its handler switches on the path, like node-http.js. micro
// serialises a returned object itself, but sends a returned string without a content-type,
// so /hello sets text/plain.
const http = require('node:http')
const { serve, send } = require('micro')
const { serveHttp } = require('../lib/contract')
const { HELLO_TEXT, helloObject, blogPost } = require('./lib/payloads')

const handler = serve((req, res) => {
  const query = req.url.indexOf('?')
  const path = query === -1 ? req.url : req.url.slice(0, query)
  if (req.method === 'GET') {
    switch (path) {
      case '/hello':
        res.setHeader('content-type', 'text/plain; charset=utf-8')
        return HELLO_TEXT
      case '/json':
        return helloObject()
      case '/blog':
        return blogPost()
    }
  }
  send(res, 404, 'Not Found')
})

serveHttp('micro', http.createServer(handler))
