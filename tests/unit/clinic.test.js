'use strict'
const { test } = require('node:test')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const h = require('@workbook/harness')
const { internal } = require('./helpers')
const { readFlameSamples } = internal('profiles/clinic-samples')
const { readDoctorData } = internal('profiles/clinic')

test('clinicDoctor runs clinic non-interactively and returns the report, its data and verdict', async (t) => {
  const d = await h.clinicDoctor('hello-http', { seconds: 2, connections: 10 })
  t.assert.ok(fs.existsSync(d.html) && d.html.endsWith('.clinic-doctor.html'))
  t.assert.ok(d.data.processStat.length > 0)
  t.assert.strictEqual(typeof d.data.analysis.issueCategory, 'string')
  t.assert.ok(d.load && d.load.reqPerSec > 0 && d.load.errors === 0)
  t.assert.deepStrictEqual(h.running(), [])
})

test('clinicFlame runs clinic flame non-interactively and returns the report and a summary of its samples', async (t) => {
  const f = await h.clinicFlame('hello-http', { seconds: 2, connections: 10 })
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

function flameDir(t, ticks) {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wb-flame-')), 'x.clinic-flame')
  t.after(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }))
  fs.mkdirSync(dir)
  if (ticks !== undefined) fs.writeFileSync(path.join(dir, 'x.clinic-flame-samples'), JSON.stringify(ticks))
  return dir
}

test("readFlameSamples counts self and total shares per frame and marks the app's own frames", (t) => {
  const appDir = path.join(h.appsDir, 'etag-slow')
  const main = { name: 'main node:internal/main:1:1', type: 'JS' }
  const listener = { name: `listener ${appDir}/util.js:25:13`, type: 'JS' }
  const dep = { name: `emit ${appDir}/node_modules/restify/lib/x.js:3:1`, type: 'JS' }
  const hash = { name: 'node::crypto::Hash::HashUpdate', type: 'CPP' }
  const dir = flameDir(t, [[main, listener, hash], [main, listener, hash], [main, listener], [main, dep], []])
  const s = readFlameSamples(dir, appDir)
  t.assert.strictEqual(s.ticks, 5)
  t.assert.deepStrictEqual(
    s.top.map((f) => [f.name, f.selfShare]),
    [
      [hash.name, 0.4],
      [listener.name, 0.2],
      [dep.name, 0.2],
    ],
  )
  const l = s.top.find((f) => f.name === listener.name)
  t.assert.strictEqual(l.totalShare, 0.6)
  t.assert.strictEqual(l.app, true)
  t.assert.deepStrictEqual(
    s.app.map((f) => f.name),
    [listener.name],
    "node_modules and CPP frames are not the app's",
  )
  t.assert.deepStrictEqual(readFlameSamples(dir).app, [], 'no appDir: nothing marked')
  t.assert.strictEqual(readFlameSamples(dir, appDir, 1).top.length, 1)
})

test('readFlameSamples refuses a folder without clinic flame samples', (t) => {
  t.assert.throws(() => readFlameSamples(flameDir(t)), /no \*\.clinic-flame-samples/)
  t.assert.throws(() => readFlameSamples(path.join(os.tmpdir(), 'no-such-folder-wb')), /not a clinic flame data folder/)
  t.assert.throws(() => readFlameSamples(flameDir(t, { not: 'ticks' })), /not a list of ticks/)
})

test('readDoctorData refuses a file that is not a doctor report', (t) => {
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wb-clinic-')), 'x.html')
  t.after(() => fs.rmSync(path.dirname(file), { recursive: true, force: true }))
  fs.writeFileSync(file, '<html><body>not clinic</body></html>')
  t.assert.throws(() => readDoctorData(file), /no clinic-data <script>/)
})
