'use strict'
// express 5 as fastify/benchmarks runs it: no etag, no x-powered-by header, no global
// middleware. POST /validate parses its JSON body with express.json() on that route only and
// validates it with ajv 8 (compiled once, with fastify's default Ajv options) unless VALIDATE=0.
const http = require('node:http')
const express = require('express')
const { serveHttp } = require('../lib/contract')
const { HELLO_TEXT, helloObject, blogPost, randomNumber, validationEnabled } = require('./lib/payloads')
const { ajvBody } = require('./lib/body-validators')

const validate = validationEnabled()
const checkBody = validate ? ajvBody() : null

const app = express()
app.set('etag', false)
app.disable('x-powered-by')

// res.send() with a string defaults to text/html, so /hello names its type.
app.get('/hello', (req, res) => {
  res.type('text/plain').send(HELLO_TEXT)
})
app.get('/json', (req, res) => {
  res.json(helloObject())
})
app.get('/blog', (req, res) => {
  res.json(blogPost())
})
// the 2016 Swift-vs-Node study's /json
app.get('/random', (req, res) => {
  res.json(randomNumber())
})

app.post('/validate', express.json(), (req, res) => {
  if (checkBody !== null && !checkBody(req.body)) {
    res.status(400).json({ ok: false, error: `body${checkBody.errors[0].instancePath} ${checkBody.errors[0].message}` })
    return
  }
  res.json({ ok: true })
})

// A body express.json() cannot parse: answer 400 quietly, as fastify (logger off) does,
// instead of express's default handler, which prints the stack trace on stderr.
app.use((err, req, res, next) => {
  res.status(err.status || 500).json({ ok: false, error: err.message })
})

serveHttp('express', http.createServer(app), { validate })
