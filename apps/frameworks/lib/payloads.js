'use strict'
// What every app in apps/frameworks/ answers, written once so that the frameworks differ in
// how they serve a payload and never in the payload itself.
//
//   GET  /hello     text/plain         Hello, World!
//   GET  /json      application/json   {"hello":"world"}
//   GET  /blog      application/json   a fake blog post with five image names picked at random
//                                      per request (the route of the 2016 Swift-vs-Node study)
//   GET  /random    application/json   {"number":<0-1000, at random>} (node-http.js and express.js
//                                      only: the study's /json route)
//   POST /validate  application/json   {"ok":true}  (fastify.js, express.js and elysia.js only: an
//                                      order checked against schemas.validateBody; see VALIDATE)
//   anything else   404
//
// The image names live in images.json, which the harness's conformance checker reads too:
// one list, so an app and its checker can never disagree about what a valid /blog looks like.
const { perPost: IMAGES_PER_POST, names: IMAGE_NAMES } = require('./images.json')

const HELLO_TEXT = 'Hello, World!'

// Handlers return a fresh object, as a real handler would, and let the framework serialise it.
function helloObject() {
  return { hello: 'world' }
}

const BLOG_TITLE = 'What a flame graph told us about our slowest route'
const BLOG_AUTHOR = 'Workbook Reader'
const BLOG_BODY =
  'We measured before we changed anything. The load test said the server answered ' +
  'a few hundred requests a second, and the event-loop delay said why: every request waited for ' +
  'the one before it to finish its synchronous work. The flame graph put a single wide frame on ' +
  'top, a helper that serialised a large object only to hash it. We built the string once, ' +
  'hashed the content we already had, and measured again with the same connections and the same ' +
  'duration, so that the two numbers could be compared. The ratio, not the absolute figure, is ' +
  'what we kept: the laptop we measured on will not be the machine you read this on.'

// IMAGES_PER_POST distinct names, uniformly at random: a partial Fisher-Yates shuffle of a copy.
function pickImages(count = IMAGES_PER_POST) {
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

function blogPost() {
  return { title: BLOG_TITLE, author: BLOG_AUTHOR, body: BLOG_BODY, images: pickImages() }
}

// The 2016 Swift-vs-Node study's /json: a random whole number from 0 to 1000.
function randomNumber() {
  return { number: Math.floor(Math.random() * 1001) }
}

// JSON schemas: response schemas for fastify.js, the request body schema for POST /validate
// (fastify's built-in validation and express's ajv compile this same object, and
// lib/body-validators.js builds Elysia's TypeBox schema from it).
const schemas = {
  json: {
    type: 'object',
    properties: { hello: { type: 'string' } },
    required: ['hello'],
  },
  blog: {
    type: 'object',
    properties: {
      title: { type: 'string' },
      author: { type: 'string' },
      body: { type: 'string' },
      images: { type: 'array', items: { type: 'string' } },
    },
    required: ['title', 'author', 'body', 'images'],
  },
  // POST /validate: an order, the kind of body an API must check before it trusts it. Checking
  // it is real work: every line item has a pattern, an integer range, a minimum and a length
  // limit. The e-mail check is a pattern rather than `format: 'email'`, which plain ajv only
  // knows with the ajv-formats plugin; a pattern costs the same in every framework.
  validateBody: {
    type: 'object',
    properties: {
      orderId: { type: 'string', pattern: '^ORD-[0-9]{8}$' },
      customer: {
        type: 'object',
        properties: {
          name: { type: 'string', minLength: 1, maxLength: 100 },
          email: { type: 'string', maxLength: 254, pattern: '^[^@\\s]+@[^@\\s]+\\.[^@\\s]+$' },
        },
        required: ['name', 'email'],
      },
      items: {
        type: 'array',
        minItems: 1,
        maxItems: 100,
        items: {
          type: 'object',
          properties: {
            sku: { type: 'string', pattern: '^[A-Z]{3}-[0-9]{4}$' },
            quantity: { type: 'integer', minimum: 1, maximum: 99 },
            unitPrice: { type: 'number', minimum: 0 },
            note: { type: 'string', maxLength: 200 },
          },
          required: ['sku', 'quantity', 'unitPrice'],
        },
      },
    },
    required: ['orderId', 'customer', 'items'],
  },
  ok: {
    type: 'object',
    properties: { ok: { type: 'boolean' } },
    required: ['ok'],
  },
}

// The sample order: ORDER_ITEMS line items, the same on every run (no randomness), so that every
// load test and every timing sends the same bytes.
const ORDER_ITEMS = 50
const SKU_PREFIXES = ['ABC', 'KLM', 'QRS', 'XYZ']
const NOTES = [
  'Gift wrap, please, and leave the receipt out of the parcel.',
  'Deliver to the back door if nobody answers at the front.',
  'Same as last month: the blue one, not the green one.',
  'Keep the spare parts together with the manual in one box.',
]

function deepFreeze(value) {
  if (value !== null && typeof value === 'object') {
    for (const inner of Object.values(value)) deepFreeze(inner)
    Object.freeze(value)
  }
  return value
}

function sampleOrder(items = ORDER_ITEMS) {
  return {
    orderId: 'ORD-20261125',
    customer: { name: 'Ada Lovelace', email: 'ada@example.org' },
    items: Array.from({ length: items }, (_, i) => ({
      sku: `${SKU_PREFIXES[i % SKU_PREFIXES.length]}-${String(1000 + ((i * 37) % 9000)).padStart(4, '0')}`,
      quantity: 1 + ((i * 7) % 99),
      unitPrice: Math.round((((i * 13.37) % 250) + 0.99) * 100) / 100,
      note: NOTES[i % NOTES.length],
    })),
  }
}

// A body that passes schemas.validateBody, for load tests and checks.
const SAMPLE_VALID_BODY = deepFreeze(sampleOrder())

// The same order with one mistake, in its last line item (a quantity of 0, below the minimum of
// 1): a validator must walk the whole list to find it. Answered 400 only when validating.
const SAMPLE_INVALID_BODY = deepFreeze(
  (() => {
    const order = sampleOrder()
    order.items[order.items.length - 1].quantity = 0
    return order
  })(),
)

// Fastify's own Ajv defaults (@fastify/ajv-compiler), so that express + ajv validates exactly as
// fastify does and the experiment compares frameworks, not Ajv settings.
const AJV_OPTIONS = Object.freeze({
  coerceTypes: 'array',
  useDefaults: true,
  removeAdditional: true,
  allErrors: false,
})

// VALIDATE=1 (the default) turns body validation on, VALIDATE=0 turns it off.
function validationEnabled(env = process.env) {
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
  randomNumber,
  schemas,
  SAMPLE_VALID_BODY,
  SAMPLE_INVALID_BODY,
  AJV_OPTIONS,
  validationEnabled,
}
