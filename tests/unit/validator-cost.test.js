'use strict'
const { test } = require('node:test')
const { validatorCost } = require('../../notebooks/03-frameworks.ts')

// The timed measurements of each validator: tests/integration/validator-cost.test.js. These two
// fail before anything is timed.

test("an unknown validator fails with the script's message", async (t) => {
  await t.assert.rejects(validatorCost({ validator: 'bogus' }), (err) => {
    t.assert.match(err.summary, /lib\/validator-cost\.js bogus 21 failed \(1\)/)
    t.assert.match(err.stderr, /Error: unknown validator "bogus"/)
    return true
  })
})

test('a measurement that outlives its time limit is stopped and reported', async (t) => {
  await t.assert.rejects(
    validatorCost({ validator: 'ajv', batches: 1000, timeoutMs: 300 }),
    /did not finish within 300 ms/,
  )
})
