'use strict'
// Integration: clinic run end to end on a live app (tests/integration/, make test-integration).
const { test } = require('node:test')
const path = require('node:path')
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

test('clinicFlame runs clinic flame non-interactively and returns the report and a summary of its samples', async (t) => {
  const f = await hi.clinicFlame('hello-http', { seconds: 2, connections: 10 })
  t.assert.ok(fs.existsSync(f.html) && f.html.endsWith('.clinic-flame.html'))
  t.assert.ok(f.data.ticks > 0, 'no ticks sampled')
  t.assert.ok(f.data.top.length > 0 && f.data.top[0].selfShare > 0)
  t.assert.ok(
    f.data.top.every((fr, i, a) => i === 0 || a[i - 1].selfShare >= fr.selfShare),
    'top is sorted by self share',
  )
  t.assert.ok(f.data.app.every((fr) => fr.app && fr.name.includes(path.join('apps', 'hello-http'))))
  t.assert.ok(f.load && f.load.reqPerSec > 0 && f.load.errors === 0)
  t.assert.deepStrictEqual(h.running(), [])
})
