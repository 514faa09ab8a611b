'use strict'
// Fresh random data as hex, for servers that send new random bytes on every request.
//
// crypto.randomBytes(5000) allocates a new Buffer on every call, with an ArrayBuffer of its own
// (it does not draw from Node's shared Buffer pool, whatever the size), which the garbage
// collector must track as external memory and free again: at thousands of requests a second,
// a measurable share of the CPU. randomHexSource fills one larger buffer from the same CSPRNG
// (crypto.randomFillSync) for `batch` calls at a time and hex-encodes a fresh slice of it on
// each call; no byte is handed out twice.
const crypto = require('node:crypto')

function randomHexSource(bytes, { batch = 64 } = {}) {
  if (!Number.isInteger(bytes) || bytes < 1) throw new Error(`bytes must be a positive integer, got ${bytes}`)
  if (!Number.isInteger(batch) || batch < 1) throw new Error(`batch must be a positive integer, got ${batch}`)
  const pool = Buffer.allocUnsafeSlow(bytes * batch)
  let used = pool.length // empty: filled on the first call
  return function randomHex() {
    if (used === pool.length) {
      crypto.randomFillSync(pool)
      used = 0
    }
    const hex = pool.toString('hex', used, used + bytes)
    used += bytes
    return hex
  }
}

module.exports = { randomHexSource }
