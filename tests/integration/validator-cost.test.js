'use strict'
// Integration: timings that must show a difference (tests/integration/, make test-integration).
const { test } = require('node:test')
const { validatorCost } = require('../../notebooks/03-frameworks.ts')
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

test("the typebox validator (Elysia's normalise-then-check) has a measurable price", async (t) => {
  const typebox = await validatorCost({ validator: 'typebox', batches: 11 })
  t.assert.ok(typebox.ratio < 0.9, `typebox on/off ${typebox.ratio}`)
})
