'use strict'
// Every app in the registry keeps the contract: starts on PORT=0, prints its listening line,
// answers its probe path, and exits with code 0 on SIGINT.
const { test } = require('node:test')
const { apps } = require('./helpers').internal('apps/registry')
const { startApp } = require('./helpers').internal('apps/start')

for (const entry of apps) {
  test(`app "${entry.name}" keeps the contract`, async (t) => {
    const app = await startApp(entry.name)
    t.after(() => app.stop())
    const res = await fetch(app.url + entry.probe)
    t.assert.ok(res.status < 400, `${entry.probe} answered ${res.status}`)
    t.assert.deepStrictEqual(await app.stop(), { code: 0, signal: null })
  })
}
