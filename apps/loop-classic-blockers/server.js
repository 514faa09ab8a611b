'use strict'
// Three classic ways to block the event loop by accident, one route each, next to a cheap
// route that suffers from them:
//   GET  /cheap        tiny JSON
//   GET  /file-sync    fs.readFileSync of a FILE_MB file (made at start in os.tmpdir(),
//                      deleted at exit). The file is in the page cache, so this is the
//                      syscalls and the copy, not a disk: a real disk is slower still.
//   GET  /file-async   the same file with fs.promises.readFile, for contrast: the reads
//                      run on the libuv pool and the loop stays free between chunks.
//   GET  /json         JSON.stringify, then JSON.parse, of a JSON_ITEMS-item document.
//   POST /json         JSON.parse of the request body, then JSON.stringify of the result
//                      (bodies above JSON_MAX_BODY_MB get 413, invalid JSON 400).
//   GET  /regex?n=N    /^(\w+\s?)*$/ against "a" x N + "!": catastrophic backtracking,
//                      ~2^N steps. N defaults to REGEX_N and is capped at REGEX_MAX_N, so a
//                      request stays in the tens-to-hundreds of milliseconds, never minutes.
const http = require('node:http')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { performance } = require('node:perf_hooks')
const { serveHttp } = require('../lib/contract')
const { attachLoopMetrics } = require('../lib/loop-metrics')
const { envInt, CHEAP_BODY, sendJson, notFound, pathOf } = require('../lib/loop-work')

const NAME = 'loop-classic-blockers'
const fileMb = envInt('FILE_MB', 96)
const jsonItems = envInt('JSON_ITEMS', 50000)
const jsonMaxBodyMb = envInt('JSON_MAX_BODY_MB', 64)
const regexN = envInt('REGEX_N', 24)
const regexMaxN = envInt('REGEX_MAX_N', Math.max(regexN, 25))

// --- the file, created now and removed however the process exits normally
const file = path.join(os.tmpdir(), `workbook-${NAME}-${process.pid}.bin`)
fs.writeFileSync(file, Buffer.alloc(fileMb * 1024 * 1024, 'workbook '))
process.on('exit', () => fs.rmSync(file, { force: true }))

// --- the large document for GET /json
const doc = {
  items: Array.from({ length: jsonItems }, (_, i) => ({
    id: i,
    name: `item ${i}`,
    tags: ['red', 'green', 'blue'],
    price: i * 1.5,
    active: i % 2 === 0,
    nested: { x: i, y: String(i) },
  })),
}

// --- the regular expression: nested quantifiers that can match the same "a"s in
// exponentially many ways, all tried before the final "!" makes the match fail.
const EVIL = /^(\w+\s?)*$/
// V8 runs a new regexp in its bytecode interpreter first (several times slower) and compiles
// it to machine code once used again: warm it up so that the first request is not special.
for (let i = 0; i < 3; i++) EVIL.test(`${'a'.repeat(12)}!`)

const ms = (since) => Math.round((performance.now() - since) * 10) / 10

function jsonRoundTrip(res, parse, text) {
  let t = performance.now()
  let value
  try {
    value = parse ? JSON.parse(text) : doc
  } catch (err) {
    return sendJson(res, 400, { error: `invalid JSON: ${err.message}` })
  }
  const parseMs = parse ? ms(t) : null
  t = performance.now()
  const out = JSON.stringify(value)
  const stringifyMs = ms(t)
  if (parse) return sendJson(res, 200, { bytesIn: Buffer.byteLength(text), bytesOut: out.length, parseMs, stringifyMs })
  t = performance.now()
  const back = JSON.parse(out)
  sendJson(res, 200, { bytes: out.length, items: back.items.length, stringifyMs, parseMs: ms(t) })
}

const server = http.createServer((req, res) => {
  const route = `${req.method} ${pathOf(req)}`
  if (route === 'GET /cheap') return sendJson(res, 200, CHEAP_BODY)

  if (route === 'GET /file-sync') {
    const t = performance.now()
    const data = fs.readFileSync(file) // the loop waits for every byte
    return sendJson(res, 200, { bytes: data.length, readMs: ms(t) })
  }
  if (route === 'GET /file-async') {
    const t = performance.now()
    fs.promises.readFile(file).then(
      (data) => sendJson(res, 200, { bytes: data.length, readMs: ms(t) }),
      (err) => sendJson(res, 500, { error: err.message }),
    )
    return
  }

  if (route === 'GET /json') return jsonRoundTrip(res, false)
  if (route === 'POST /json') {
    const limit = jsonMaxBodyMb * 1024 * 1024
    const chunks = []
    let size = 0
    let tooBig = false
    req.on('data', (chunk) => {
      size += chunk.length
      if (size > limit) tooBig = true
      else chunks.push(chunk)
    })
    req.on('end', () => {
      if (tooBig) return sendJson(res, 413, { error: `body larger than ${jsonMaxBodyMb} MB` })
      jsonRoundTrip(res, true, Buffer.concat(chunks).toString('utf8'))
    })
    return
  }

  if (route === 'GET /regex') {
    const asked = Number(new URL(req.url, 'http://x').searchParams.get('n') || regexN)
    const n = Number.isInteger(asked) && asked > 0 ? Math.min(asked, regexMaxN) : regexN
    const input = `${'a'.repeat(n)}!`
    const t = performance.now()
    const matched = EVIL.test(input)
    return sendJson(res, 200, { n, matched, regexMs: ms(t) })
  }

  notFound(res)
})

const extra = { fileMb, jsonItems, jsonMaxBodyMb, regexN, regexMaxN, file }
attachLoopMetrics(server, { name: NAME, info: extra })
serveHttp(NAME, server, extra)
