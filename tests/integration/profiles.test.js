'use strict'
// Integration (make test-integration): cpuProfile on live apps.
const { test } = require('node:test')
const path = require('node:path')
const h = require('@workbook/harness')
const hi = require('@workbook/harness/internal')
const { fixture } = require('../unit/helpers')

test('cpuProfile profiles an app under load and finds its handler', async (t) => {
  const p = await h.cpuProfile('hello-http', { seconds: 2, load: { connections: 10, live: false } })
  t.assert.match(p.file, /\.cpuprofile$/)
  t.assert.ok(p.flame.total > 100)
  t.assert.strictEqual(p.flame.hottestUser.file, path.join('apps', 'hello-http', 'server.js'))
  t.assert.ok(p.load.totalRequests > 0)
})

test('cpuProfile explains a missing profile when the app does not exit cleanly', async (t) => {
  await t.assert.rejects(
    h.cpuProfile(
      { entry: fixture('ignores-sigint.js') },
      {
        seconds: 1,
        load: { connections: 2, live: false },
        start: { probe: false, startTimeoutMs: 5000 },
        stopTimeoutMs: 1000,
      },
    ),
    /no CPU profile was written .*killed by SIGKILL.*Try: V8 writes the profile when the process exits on its own/s,
  )
  const fs = require('node:fs')
  const left = fs.readdirSync(path.join(hi.resultsDir, 'profiles')).filter((d) => d.startsWith('ignores-sigint-'))
  t.assert.deepStrictEqual(
    left.filter((d) => fs.readdirSync(path.join(hi.resultsDir, 'profiles', d)).length === 0),
    [],
    'no empty folder is left',
  )
})
