'use strict'
// Exercise 02 · unblock the expensive route.
//
//   GET /cheap                 application/json   {"ok":true}
//   GET /report?user=<name>    application/json   {"user":"<name>","digest":"<64 hex>"}
//                              (name: 1-20 letters; anything else answers 400)
//   anything else              404
//
// /report derives a key for the user with PBKDF2 (20 rounds of 20,000 iterations, each round's
// key the next round's password): tens of milliseconds of CPU per request (the notebook times it
// on your machine). The starting point does it synchronously on the main thread, so while a
// report is computed every /cheap request waits.
// Keep every answer byte for byte; change how the work is scheduled.
const http = require('node:http')
const crypto = require('node:crypto')
const contract = require('../../../apps/lib/contract')

const SALT = 'node-performance-workbook'
const ROUNDS = 20
const ITERATIONS = 20000
const CHEAP = JSON.stringify({ ok: true })

function send (res, status, type, body) {
  res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) })
  res.end(body)
}

// BEGIN SOLUTION
// HINT: Notebook 02, section 4 (Remedies) measures three ways to keep this very work (PBKDF2 rounds) off the thread that answers /cheap; section 4a, how many threads a pool should have on this machine.
// HINT: A promise or an async function alone moves nothing off that thread (notebook 02, section 1: nothing preempts JavaScript).
// The same rounds, each on libuv's thread pool (crypto.pbkdf2): the main thread only chains
// the callbacks, so /cheap is answered between two rounds instead of after all twenty.
function pbkdf2 (password) {
  return new Promise((resolve, reject) => {
    crypto.pbkdf2(password, SALT, ITERATIONS, 32, 'sha256', (err, key) => (err ? reject(err) : resolve(key)))
  })
}

async function reportDigest (user) {
  let key = Buffer.from(user)
  for (let i = 0; i < ROUNDS; i++) key = await pbkdf2(key)
  return key.toString('hex')
}

async function report (res, user) {
  try {
    send(res, 200, 'application/json', JSON.stringify({ user, digest: await reportDigest(user) }))
  } catch (err) {
    send(res, 500, 'text/plain', `${err.message}\n`)
  }
}
// END SOLUTION
// BEGIN STUB
// // The whole derivation, synchronously: nothing else runs on this thread until it returns.
// function reportDigest (user) {
//   let key = Buffer.from(user)
//   for (let i = 0; i < ROUNDS; i++) key = crypto.pbkdf2Sync(key, SALT, ITERATIONS, 32, 'sha256')
//   return key.toString('hex')
// }
//
// function report (res, user) {
//   send(res, 200, 'application/json', JSON.stringify({ user, digest: reportDigest(user) }))
// }
// END STUB

const server = http.createServer((req, res) => {
  const url = new URL(req.url, 'http://localhost')
  if (req.method === 'GET' && url.pathname === '/cheap') return send(res, 200, 'application/json', CHEAP)
  if (req.method === 'GET' && url.pathname === '/report') {
    const user = url.searchParams.get('user') ?? ''
    if (!/^[A-Za-z]{1,20}$/.test(user)) return send(res, 400, 'text/plain', 'user must be 1-20 letters\n')
    return report(res, user)
  }
  send(res, 404, 'text/plain', 'not found\n')
})

contract.serveHttp('02-unblock', server)
