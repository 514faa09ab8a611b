'use strict'
// Notebook 05, serialisation: the work of every JSON answer, measured on the shop API's own data and
// code (apps/lib/shop.js, apps/lib/shop-work.js), so that these gains can be set beside the apps'.
//   - serialise a stock answer (25 bytes), one product (175 bytes) and a page of 25 products (4.5 KB):
//     JSON.stringify, a serialiser compiled from a JSON Schema by fast-json-stringify, and for the
//     product a template string, and JSON.stringify of the same product with its date already a string;
//   - the etag of a stock answer and of a page: a sha512 of the body, or its length and CRC-32.
// Run: node apps/micro/serialise.js (prints one JSON line; the notebook reads it with wb.microbench).
const { suite } = require('./lib/bench')
const { catalogue, page } = require('../lib/shop')
const { jsonBody, schemaBody, sha512Etag, crc32Etag } = require('../lib/shop-work')

// Inputs taken in turn, so that each call gets another one: 64 stock answers, 64 products, 16 pages.
const stock = catalogue.slice(0, 64).map(({ id, inStock }) => ({ kind: 'stock', value: { id, inStock } }))
const products = catalogue.slice(0, 64).map((value) => ({ kind: 'product', value }))
const pages = Array.from({ length: 16 }, (_, n) => ({ kind: 'page', value: page(n + 1) }))
const plainProducts = products.map(({ value }) => ({ ...value, updatedAt: value.updatedAt.toISOString() }))

// A string built with + or a template is a "rope": cheap to make, copied into one piece when first
// read (the server reads it to write it out). Each serialiser's result is read once, as that reader would.
const flat = (s) => {
  s.charCodeAt(0)
  return s
}

const template = (p) =>
  `{"id":${p.id},"sku":${JSON.stringify(p.sku)},"name":${JSON.stringify(p.name)},"price":${p.price},` +
  `"currency":${JSON.stringify(p.currency)},"inStock":${p.inStock},"rating":${p.rating},` +
  `"tags":${JSON.stringify(p.tags)},"updatedAt":"${p.updatedAt.toISOString()}"}`

const stockBodies = stock.map(jsonBody)
const pageBodies = pages.map(jsonBody)

const each = (group, input) => ({ group, input })
const small = each('serialise a stock answer (25 bytes)', stock)
const one = each('serialise one product (175 bytes)', products)
const many = each('serialise a page of 25 products (4.5 KB)', pages)
const smallEtag = each('etag of a stock answer', stockBodies)
const pageEtag = each('etag of a page', pageBodies)
suite('serialise')
  .add('JSON.stringify (stock)', (i, all) => jsonBody(all[i & 63]), small)
  .add('fast-json-stringify (stock)', (i, all) => flat(schemaBody(all[i & 63])), small)
  .add('JSON.stringify (product)', (i, all) => jsonBody(all[i & 63]), one)
  .add('template string (product)', (i, all) => flat(template(all[i & 63].value)), one)
  .add('fast-json-stringify (product)', (i, all) => flat(schemaBody(all[i & 63])), one)
  .add('JSON.stringify, date as a string', (i, all) => JSON.stringify(all[i & 63]), { ...one, input: plainProducts })
  .add('JSON.stringify (page)', (i, all) => jsonBody(all[i & 15]), many)
  .add('fast-json-stringify (page)', (i, all) => flat(schemaBody(all[i & 15])), many)
  .add('sha512 (stock)', (i, all) => sha512Etag(all[i & 63]), smallEtag)
  .add('crc32 (stock)', (i, all) => crc32Etag(all[i & 63]), smallEtag)
  .add('sha512 (page)', (i, all) => sha512Etag(all[i & 15]), pageEtag)
  .add('crc32 (page)', (i, all) => crc32Etag(all[i & 15]), pageEtag)
  .run()
