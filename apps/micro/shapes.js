'use strict'
// Notebook 05, object shapes: one function that reads o.x + o.y + o.z, fed objects of one shape
// (hidden class) or of many. V8 caches, at each property read, where the property sits in the shapes
// it has seen there: one shape is "monomorphic" (a check and a load), two to four "polymorphic" (a
// few checks), more "megamorphic" (a lookup in a global cache, every time).
// Run: node apps/micro/shapes.js (prints one JSON line; the notebook reads it with wb.microbench).
const { suite, fresh } = require('./lib/bench')

class Point {
  constructor(x, y, z) {
    this.x = x
    this.y = y
    this.z = z
  }
}

// The six orders in which an object literal can list x, y and z: six different shapes.
const ORDERS = [
  ['x', 'y', 'z'],
  ['x', 'z', 'y'],
  ['y', 'x', 'z'],
  ['y', 'z', 'x'],
  ['z', 'x', 'y'],
  ['z', 'y', 'x'],
]
const literal = (order, i) => Object.fromEntries(order.map((key, k) => [key, i + k]))

const N = 1024 // objects per task, read in turn
const objects = {
  'class Point': Array.from({ length: N }, (_, i) => new Point(i, i + 1, i + 2)),
  'literals, 1 key order': Array.from({ length: N }, (_, i) => literal(ORDERS[0], i)),
  'literals, 2 key orders': Array.from({ length: N }, (_, i) => literal(ORDERS[i % 2], i)),
  'literals, 6 key orders': Array.from({ length: N }, (_, i) => literal(ORDERS[i % 6], i)),
}

// The function under test. Each task gets its own copy (fresh), so each copy's read sites see only
// that task's shapes.
function sum8(i, objs) {
  let s = 0
  for (let k = 0; k < 8; k++) {
    const o = objs[(i + k) & 1023]
    s += o.x + o.y + o.z
  }
  return s
}

const bench = suite('shapes')
for (const [name, objs] of Object.entries(objects)) {
  bench.add(name, fresh(sum8), { input: objs, group: 'o.x + o.y + o.z of 8 objects' })
}
bench.run()
