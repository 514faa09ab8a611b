'use strict'
const { test } = require('node:test')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { internal } = require('./helpers')
const { readDoctorData } = internal('profiles/clinic')

test('readDoctorData refuses a file that is not a doctor report', (t) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wb-clinic-')), 'x.html')
  t.after(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }))
  fs.writeFileSync(file, '<html><body>not clinic</body></html>')
  t.assert.throws(() => readDoctorData(file), /no clinic-data <script>/)
})
