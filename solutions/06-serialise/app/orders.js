'use strict'
// Exercise 06: the shop's orders, as an ORM would hand them over: Order objects with a Date, money
// in cents, and internal fields (names starting with _) that must never reach a client.
// 2,000 orders of 50 customers (40 each), 1 to 4 lines each; built once at start-up, never changed.
const PRODUCTS = [
  ['SKU-000101', 'Garden chair', 4999],
  ['SKU-000102', 'Oak table "Nordic"', 24900],
  ['SKU-000103', 'Desk lamp', 3450],
  ['SKU-000104', 'Wool rug, 2 x 3 m', 12900],
  ['SKU-000105', 'Bookshelf', 8999],
  ['SKU-000106', 'Coat hook (set of 4)', 1299],
  ['SKU-000107', 'Plant pot, Ø 30 cm', 2250],
]
const STATUSES = ['placed', 'paid', 'shipped', 'delivered', 'returned']
const SINCE = Date.UTC(2026, 0, 1)

class Order {
  constructor(id) {
    const n = 1 + (id % 4)
    this.id = id
    this.customer = 1 + (id % 50)
    this.placedAt = new Date(SINCE + id * 5_400_000)
    this.status = STATUSES[id % STATUSES.length]
    this.currency = 'EUR'
    this.lines = Array.from({ length: n }, (_, k) => {
      const [sku, name, price] = PRODUCTS[(id + k * 3) % PRODUCTS.length]
      return { sku, name, qty: 1 + ((id + k) % 3), price }
    })
    this.total = this.lines.reduce((sum, l) => sum + l.qty * l.price, 0)
    this._version = 1 + (id % 7)
    this._audit = { createdBy: `clerk-${id % 13}`, ip: `10.0.${id % 256}.${(id * 7) % 256}`, notes: '' }
  }
}

const orders = Array.from({ length: 2000 }, (_, i) => new Order(i + 1))

/** customer id -> that customer's orders, oldest first. */
const byCustomer = new Map()
for (const o of orders) {
  if (!byCustomer.has(o.customer)) byCustomer.set(o.customer, [])
  byCustomer.get(o.customer).push(o)
}

module.exports = { byCustomer, Order }
