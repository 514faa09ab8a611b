'use strict'
// Notebook 05, "why micro-benchmarks lie": the same work measured honestly and in two ways that lie.
// Run: node apps/micro/lies.js (prints one JSON line; the notebook reads it with wb.microbench).
const { suite } = require('./lib/bench')

suite('lies')
  // A small object, like the one a handler builds for every answer.
  .add('build an object, result kept', (i) => ({ id: i, name: 'widget', price: i * 2, tags: ['a', 'b'] }))
  // The same, but nobody reads the result: the JIT may skip the work entirely.
  .add('build an object, result dropped', (i) => ({ id: i, name: 'widget', price: i * 2, tags: ['a', 'b'] }), {
    sink: false,
  })
  // Arithmetic on an input that changes with every call...
  .add('Math.pow of the input, kept', (i) => i ** 3 + Math.sqrt(i))
  // ...and on constants: the JIT computes it once, while compiling.
  .add('Math.pow of constants, kept', () => 7 ** 3 + Math.sqrt(2))
  .run()
