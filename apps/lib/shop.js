'use strict'
// The data and the routes of notebook 05's shop API (apps/shop-before, apps/shop-after): a
// catalogue of 1,000 products, as rows from a database driver come (updatedAt is a Date), and
//   GET /stock/<id>             whether product <id> is in stock: {"id":42,"inStock":true} (25 bytes)
//   GET /products/<id>          one product (about 180 bytes of JSON)
//   GET /products?page=<n>      a page of 25 products (about 4.5 KB), pages 1 to 40
// Both apps answer the same bodies; they differ only in how they serialise them and make the etag
// (lib/shop-work.js).
const PAGE_SIZE = 25
const NAMES = ['Garden chair', 'Oak table', 'Desk lamp', 'Wool rug', 'Bookshelf', 'Coat hook', 'Plant pot']
const TAGS = ['garden', 'outdoor', 'wood', 'metal', 'eco', 'sale', 'new', 'kids', 'office']
const SINCE = Date.UTC(2026, 0, 1)

function product(id) {
  return {
    id,
    sku: `SKU-${String(id).padStart(6, '0')}`,
    name: `${NAMES[id % NAMES.length]} "${id}"`,
    price: 999 + ((id * 37) % 4000),
    currency: 'EUR',
    inStock: id % 4 !== 0,
    rating: Math.round((3 + (id % 20) / 10) * 10) / 10,
    tags: [TAGS[id % TAGS.length], TAGS[(id * 5 + 1) % TAGS.length]],
    updatedAt: new Date(SINCE + id * 3_600_000),
  }
}

const catalogue = Array.from({ length: 1000 }, (_, i) => product(i + 1))
const PAGES = catalogue.length / PAGE_SIZE

/** Page n (1-based) of the catalogue, or null. */
function page(n) {
  if (!Number.isInteger(n) || n < 1 || n > PAGES) return null
  return {
    page: n,
    pageSize: PAGE_SIZE,
    total: catalogue.length,
    items: catalogue.slice((n - 1) * PAGE_SIZE, n * PAGE_SIZE),
  }
}

/**
 * What a url asks for: { kind: 'product' | 'page', value } or null (404). The url is parsed by hand,
 * the same in both apps, so that parsing costs them the same.
 */
function route(url) {
  if (url.startsWith('/stock/')) {
    const found = catalogue[Number(url.slice(7)) - 1]
    return found ? { kind: 'stock', value: { id: found.id, inStock: found.inStock } } : null
  }
  if (url.startsWith('/products/')) {
    const found = catalogue[Number(url.slice(10)) - 1]
    return found ? { kind: 'product', value: found } : null
  }
  if (url.startsWith('/products?page=')) {
    const value = page(Number(url.slice(15)))
    return value ? { kind: 'page', value } : null
  }
  return null
}

// The JSON Schemas of the answers, for fast-json-stringify.
const stockSchema = { type: 'object', properties: { id: { type: 'integer' }, inStock: { type: 'boolean' } } }
const productSchema = {
  type: 'object',
  properties: {
    id: { type: 'integer' },
    sku: { type: 'string' },
    name: { type: 'string' },
    price: { type: 'integer' },
    currency: { type: 'string' },
    inStock: { type: 'boolean' },
    rating: { type: 'number' },
    tags: { type: 'array', items: { type: 'string' } },
    updatedAt: { type: 'string', format: 'date-time' },
  },
}
const pageSchema = {
  type: 'object',
  properties: {
    page: { type: 'integer' },
    pageSize: { type: 'integer' },
    total: { type: 'integer' },
    items: { type: 'array', items: productSchema },
  },
}

module.exports = { catalogue, page, route, product, stockSchema, productSchema, pageSchema, PAGE_SIZE }
