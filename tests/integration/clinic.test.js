'use strict'
// Integration: clinic run end to end on a live app (tests/integration/, make test-integration).
const { test } = require('node:test')
const fs = require('node:fs')
const h = require('@workbook/harness')
const hi = require('@workbook/harness/internal')

test('clinicDoctor runs clinic non-interactively and returns the report, its data and verdict', async (t) => {
  const d = await hi.clinicDoctor('hello-http', { seconds: 2, connections: 10 })
  t.assert.ok(fs.existsSync(d.html) && d.html.endsWith('.clinic-doctor.html'))
  t.assert.ok(d.data.processStat.length > 0)
  t.assert.strictEqual(typeof d.data.analysis.issueCategory, 'string')
  t.assert.ok(d.load && d.load.reqPerSec > 0 && d.load.errors === 0)
  t.assert.deepStrictEqual(h.running(), [])
})
