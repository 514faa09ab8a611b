'use strict'
// The expensive work of notebook 02, and the tiny HTTP helpers, shared by loop-blocking and by
// every remedy (loop-partitioned, loop-worker-pool, loop-libuv-crypto, loop-shedding,
// loop-shedding-queue) and by loop-classic-blockers, so that "the same work per expensive
// request" is true by construction.
//
// The work: WORK_ROUNDS rounds of PBKDF2-HMAC-SHA256 with WORK_ITERATIONS iterations each,
// each round's 32-byte key being the next round's password. It is split in rounds so that
// the partitioned remedy has natural chunks and the libuv remedy can chain async calls;
// every app returns the final key's hex digest, so the notebook can check they all did the
// same work. How long the defaults (20 x 20000) take depends on the machine (tens of ms to
// over 100 ms): every /expensive answer reports its own workMs, and notebook 02 measures it
// before choosing its request rates.

const crypto = require('node:crypto')
const { performance } = require('node:perf_hooks')

const SALT = 'node-performance-workbook'
const KEY_LENGTH = 32
const DIGEST = 'sha256'
const FIRST_KEY = Buffer.from('expensive')

function envInt(name, fallback, min = 1) {
  const raw = process.env[name]
  if (raw === undefined || raw === '') return fallback
  const value = Number(raw)
  if (!Number.isInteger(value) || value < min)
    throw new Error(`${name} must be an integer >= ${min}, got ${JSON.stringify(raw)}`)
  return value
}

function workConfig() {
  return {
    rounds: envInt('WORK_ROUNDS', 20),
    iterations: envInt('WORK_ITERATIONS', 20000),
  }
}

// One round, synchronously: blocks the calling thread for about 1/rounds of the work.
function workRound(key, iterations) {
  return crypto.pbkdf2Sync(key, SALT, iterations, KEY_LENGTH, DIGEST)
}

// All the work, synchronously. Returns the final key as hex.
function workSync({ rounds, iterations }) {
  let key = FIRST_KEY
  for (let i = 0; i < rounds; i++) key = workRound(key, iterations)
  return key.toString('hex')
}

const CHEAP_BODY = JSON.stringify({ cheap: true })

function sendJson(res, status, value) {
  const body = typeof value === 'string' ? value : JSON.stringify(value)
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

function notFound(res) {
  res.writeHead(404, { 'content-type': 'text/plain' })
  res.end('not found\n')
}

// The path without its query string.
function pathOf(req) {
  const q = req.url.indexOf('?')
  return q === -1 ? req.url : req.url.slice(0, q)
}

// loop-blocking's request handler, shared with the shedding apps that put a check in front of it:
// GET /cheap at once; GET /expensive after `work`, synchronously (the whole event loop stops
// there); anything else 404.
function blockingHandler(work) {
  return function handle(req, res) {
    const path = req.method === 'GET' ? pathOf(req) : null
    if (path === '/cheap') return sendJson(res, 200, CHEAP_BODY)
    if (path === '/expensive') {
      const start = performance.now()
      const digest = workSync(work) // the whole event loop stops here
      return sendJson(res, 200, { digest, ...work, workMs: Math.round(performance.now() - start) })
    }
    notFound(res)
  }
}

module.exports = {
  SALT,
  KEY_LENGTH,
  DIGEST,
  FIRST_KEY,
  envInt,
  workConfig,
  workRound,
  workSync,
  CHEAP_BODY,
  sendJson,
  notFound,
  pathOf,
  blockingHandler,
}
