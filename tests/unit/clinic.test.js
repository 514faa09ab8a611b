'use strict'
const { test } = require('node:test')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { internal } = require('./helpers')
const { readFlameSamples } = internal('profiles/clinic-samples')
const { readDoctorData } = internal('profiles/clinic')

function flameDir(t, ticks) {
  const dir = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'wb-flame-')), 'x.clinic-flame')
  t.after(() => fs.rmSync(path.dirname(dir), { recursive: true, force: true }))
  fs.mkdirSync(dir)
  if (ticks !== undefined) fs.writeFileSync(path.join(dir, 'x.clinic-flame-samples'), JSON.stringify(ticks))
  return dir
}

test("readFlameSamples counts self and total shares per frame and marks the app's own frames", (t) => {
  const appDir = path.join(require('@workbook/harness').appsDir, 'etag-slow')
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
