'use strict'
const { test } = require('node:test')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const h = require('@workbook/harness')

test('clinicDoctor runs clinic non-interactively and returns the report, its data and verdict', async (t) => {
  const d = await h.clinicDoctor('hello-http', { seconds: 2, connections: 10 })
  t.assert.ok(fs.existsSync(d.html) && d.html.endsWith('.clinic-doctor.html'))
  t.assert.ok(d.data.processStat.length > 0)
  t.assert.strictEqual(typeof d.data.analysis.issueCategory, 'string')
  t.assert.ok(d.load && d.load.reqPerSec > 0 && d.load.errors === 0)
  t.assert.deepStrictEqual(h.running(), [])
})

test('readDoctorData refuses a file that is not a doctor report', (t) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wb-clinic-')), 'x.html')
  t.after(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }))
  fs.writeFileSync(file, '<html><body>not clinic</body></html>')
  t.assert.throws(() => h.readDoctorData(file), /no clinic-data <script>/)
})
