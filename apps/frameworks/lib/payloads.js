'use strict'
// What every app in apps/frameworks/ answers, written once so that the frameworks differ in
// how they serve a payload and never in the payload itself.
//
//   GET  /hello     text/plain         Hello, World!
//   GET  /json      application/json   {"hello":"world"}
//   GET  /blog      application/json   a fake blog post with five image names picked at random
//                                      per request (the route of the 2016 Swift-vs-Node study)
//   POST /validate  application/json   {"ok":true}  (fastify.js and express.js only; see VALIDATE)
//   anything else   404
//
// The image names live in images.json, which the harness's conformance checker reads too:
// one list, so an app and its checker can never disagree about what a valid /blog looks like.
const { perPost: IMAGES_PER_POST, names: IMAGE_NAMES } = require('./images.json')

const HELLO_TEXT = 'Hello, World!'

// Handlers return a fresh object, as a real handler would, and let the framework serialise it.
function helloObject () {
  return { hello: 'world' }
}

const BLOG_TITLE = 'What a flame graph told us about our slowest route'
const BLOG_AUTHOR = 'Workbook Reader'
const BLOG_BODY = 'We measured before we changed anything. The load test said the server answered ' +
  'a few hundred requests a second, and the event-loop delay said why: every request waited for ' +
  'the one before it to finish its synchronous work. The flame graph put a single wide frame on ' +
  'top, a helper that serialised a large object only to hash it. We built the string once, ' +
  'hashed the content we already had, and measured again with the same connections and the same ' +
  'duration, so that the two numbers could be compared. The ratio, not the absolute figure, is ' +
  'what we kept: the laptop we measured on will not be the machine you read this on.'

// IMAGES_PER_POST distinct names, uniformly at random: a partial Fisher-Yates shuffle of a copy.
function pickImages (count = IMAGES_PER_POST) {
  const pool = IMAGE_NAMES.slice()
  for (let i = 0; i < count; i++) {
    const j = i + Math.floor(Math.random() * (pool.length - i))
    const swap = pool[i]
    pool[i] = pool[j]
    pool[j] = swap
  }
  pool.length = count
  return pool
}

function blogPost () {
  return { title: BLOG_TITLE, author: BLOG_AUTHOR, body: BLOG_BODY, images: pickImages() }
}

// JSON schemas: response schemas for fastify.js, the request body schema for POST /validate
// (fastify's built-in validation and express's ajv compile this same object).
const schemas = {
  json: {
    type: 'object',
    properties: { hello: { type: 'string' } },
    required: ['hello']
  },
  blog: {
    type: 'object',
    properties: {
      title: { type: 'string' },
      author: { type: 'string' },
      body: { type: 'string' },
      images: { type: 'array', items: { type: 'string' } }
    },
    required: ['title', 'author', 'body', 'images']
  },
  // "format-ish" e-mail: a pattern rather than `format: 'email'`, which plain ajv only knows
  // with the ajv-formats plugin; a pattern costs the same in both frameworks.
  validateBody: {
    type: 'object',
    properties: {
      name: { type: 'string', minLength: 1, maxLength: 50 },
      age: { type: 'integer', minimum: 0, maximum: 150 },
      email: { type: 'string', maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' },
      tags: { type: 'array', maxItems: 10, items: { type: 'string' } }
    },
    required: ['name', 'age', 'email', 'tags']
  },
  ok: {
    type: 'object',
    properties: { ok: { type: 'boolean' } },
    required: ['ok']
  }
}

// A body that passes schemas.validateBody, for load tests and checks.
const SAMPLE_VALID_BODY = Object.freeze({
  name: 'Ada Lovelace',
  age: 36,
  email: 'ada@example.org',
  tags: ['maths', 'engines', 'notes']
})

// Fastify's own Ajv defaults (@fastify/ajv-compiler), so that express + ajv validates exactly as
// fastify does and the experiment compares frameworks, not Ajv settings.
const AJV_OPTIONS = Object.freeze({
  coerceTypes: 'array',
  useDefaults: true,
  removeAdditional: true,
  allErrors: false
})

// VALIDATE=1 (the default) turns body validation on, VALIDATE=0 turns it off.
function validationEnabled (env = process.env) {
  const raw = env.VALIDATE === undefined || env.VALIDATE === '' ? '1' : env.VALIDATE
  if (raw !== '0' && raw !== '1') {
    throw new Error(`VALIDATE must be 0 or 1, got ${JSON.stringify(raw)}`)
  }
  return raw === '1'
}

module.exports = {
  HELLO_TEXT,
  IMAGE_NAMES,
  IMAGES_PER_POST,
  helloObject,
  pickImages,
  blogPost,
  schemas,
  SAMPLE_VALID_BODY,
  AJV_OPTIONS,
  validationEnabled
}
