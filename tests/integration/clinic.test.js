'use strict'
// Integration: clinic doctor run end to end on a live app, as notebook 01 runs it (its module,
// notebooks/01-clinic-doctor.ts); tests/integration/, make test-integration.
const { test } = require('node:test')
const fs = require('node:fs')
const path = require('node:path')
const h = require('@workbook/harness')
const { running } = require('@workbook/harness/internal')
const here = require(path.join(__dirname, '..', '..', 'notebooks', '01-clinic-doctor.ts'))

test('clinicDoctor runs clinic non-interactively and returns the report, its data, its verdict and its command', async (t) => {
  const d = await here.clinicDoctor('hello-http', { seconds: 2, connections: 10 })
  t.assert.ok(fs.existsSync(d.html) && d.html.endsWith('.clinic-doctor.html'), d.html)
  const results = path.resolve(h.repoRoot, process.env.WORKBOOK_RESULTS_DIR || 'results')
  t.assert.ok(d.html.startsWith(path.join(results, 'clinic', 'hello-http-doctor-')), d.html)
  t.assert.ok(d.data.processStat.length > 0)
  t.assert.strictEqual(typeof d.data.analysis.issueCategory, 'string')
  t.assert.strictEqual(d.sampling.samples, d.data.processStat.length)
  t.assert.ok(d.load && d.load.reqPerSec > 0 && d.load.errors === 0 && d.load.non2xx === 0, JSON.stringify(d.load))
  t.assert.match(
    d.command,
    /clinic\/bin\.js doctor .*--on-port .*autocannon.* -c 10 -d 2 .* -- node_modules\/node\/bin\/node apps\/hello-http\/server\.js$/,
  )
  // As a learner types it from the workbook's folder: no path of this checkout, their own PATH behind the pinned Node.
  t.assert.ok(!d.command.includes(h.repoRoot), d.command)
  t.assert.match(d.command, /^NO_INSIGHT=1 PATH="\$PWD\/node_modules\/node\/bin:\$PATH" /)
  t.assert.deepStrictEqual(running(), [])
})
