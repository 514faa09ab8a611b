'use strict'
// The per-request work of notebook 05's shop API, each step in a function of its own so that a CPU
// profile can tell them apart (V8 books the time of JSON.stringify, a builtin, to its caller):
// apps/shop-before uses jsonBody and sha512Etag, apps/shop-after schemaBody and crc32Etag.
const crypto = require('node:crypto')
const zlib = require('node:zlib')
const fastJson = require('fast-json-stringify')
const { stockSchema, productSchema, pageSchema } = require('./shop')

// Serialise: JSON.stringify, or a serialiser compiled once from the answer's JSON Schema.
function jsonBody(found) {
  return JSON.stringify(found.value)
}

// Compiled once, on first use (so that the app that never uses them does not pay for compiling them).
let compiled = null
function schemaBody(found) {
  compiled ??= { stock: fastJson(stockSchema), product: fastJson(productSchema), page: fastJson(pageSchema) }
  return compiled[found.kind](found.value)
}

// The etag: a sha512 of the body (what the slow etag server of notebook 01 did), or a cheap content
// hash: the body's length and its CRC-32 (zlib.crc32, native). Both change when the body does.
function sha512Etag(body) {
  return `"${crypto.createHash('sha512').update(body).digest('base64')}"`
}

function crc32Etag(body) {
  return `"${body.length.toString(16)}-${zlib.crc32(body).toString(16)}"`
}

module.exports = { jsonBody, schemaBody, sha512Etag, crc32Etag }
