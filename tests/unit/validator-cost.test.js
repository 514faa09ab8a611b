'use strict'
const { test } = require('node:test')
const { validatorCost } = require('@workbook/harness')
const { SAMPLE_VALID_BODY } = require('../../apps/frameworks/lib/payloads')

// Notebook 03 times each validator on its own beside the framework-level price, and asserts that
// at least one keeps < 0.9 of a parse-only loop. The control, a validator that looks at nothing,
// must not pass that bar.
test('Ajv has a measurable price; the control that checks nothing does not', async (t) => {
  const ajv = await validatorCost({ validator: 'ajv', batches: 11 })
  t.assert.ok(ajv.ratio < 0.9, `ajv on/off ${ajv.ratio}`)
  t.assert.ok(ajv.validateNs > 0 && ajv.parseAndValidateNs > ajv.parseNs, JSON.stringify(ajv))
  t.assert.match(ajv.runtime, /^Node /)
  t.assert.strictEqual(ajv.items, SAMPLE_VALID_BODY.items.length)
  t.assert.strictEqual(ajv.bodyBytes, Buffer.byteLength(JSON.stringify(SAMPLE_VALID_BODY)))
  const none = await validatorCost({ validator: 'none', batches: 11 })
  t.assert.ok(none.ratio >= 0.9, `control on/off ${none.ratio}`)
})

// "typebox" is what Elysia runs (exact-mirror, then TypeBox's check); it runs on Node too.
test("the typebox validator (Elysia's normalise-then-check) has a measurable price", async (t) => {
  const typebox = await validatorCost({ validator: 'typebox', batches: 11 })
  t.assert.ok(typebox.ratio < 0.9, `typebox on/off ${typebox.ratio}`)
})

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
