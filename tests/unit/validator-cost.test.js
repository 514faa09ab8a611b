'use strict'
const { test } = require('node:test')
const { validatorCost } = require('@workbook/harness')

// Notebook 03 asserts that validation has a measurable price (on/off < 0.9 for at least one
// validator). The control, a validator that looks at nothing, must not pass that bar.
test('Ajv has a measurable price; the control that checks nothing does not', async (t) => {
  const ajv = await validatorCost({ validator: 'ajv', batches: 11 })
  t.assert.ok(ajv.ratio < 0.9, `ajv on/off ${ajv.ratio}`)
  t.assert.ok(ajv.validateNs > 0 && ajv.parseAndValidateNs > ajv.parseNs, JSON.stringify(ajv))
  t.assert.match(ajv.runtime, /^Node /)
  const none = await validatorCost({ validator: 'none', batches: 11 })
  t.assert.ok(none.ratio >= 0.9, `control on/off ${none.ratio}`)
})

test('an unknown validator fails with the script\'s message', async (t) => {
  await t.assert.rejects(validatorCost({ validator: 'bogus' }), /validatorCost\(bogus\) failed \(1\): Error: unknown validator "bogus"/)
})

test('a measurement that outlives its time limit is stopped and reported', async (t) => {
  await t.assert.rejects(validatorCost({ validator: 'ajv', batches: 1000, timeoutMs: 300 }), /did not finish within 300 ms/)
})
