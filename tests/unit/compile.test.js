'use strict'
// bun build --compile and standalone apps. The compiling test needs Bun (`make runtimes`); without it,
// it checks the error that says so.
const { test } = require('node:test')
const fs = require('node:fs')
const path = require('node:path')
const wb = require('@workbook/harness')
const nb03 = require('../../notebooks/03-frameworks.ts')
const { startApp } = require('./helpers').internal('apps/start')

const compiled = path.join(require('@workbook/harness').repoRoot, 'build', 'compiled')
const leftOver = () => (fs.existsSync(compiled) ? fs.readdirSync(compiled) : null)

test('a standalone app takes no runtime and no runtime flags', async (t) => {
  const entry = path.join(require('@workbook/harness').repoRoot, 'apps', 'hello-http', 'server.js')
  for (const opts of [{ runtime: process.execPath }, { nodeArgs: ['--cpu-prof'] }]) {
    await t.assert.rejects(
      startApp({ name: 'x', entry }, { standalone: true, ...opts }),
      /startApp: app "x" is standalone \(a program in itself\): it takes no runtime and no runtime flags/,
    )
  }
})

test('withBunCompiled builds one executable in build/compiled, runs it standalone, and leaves nothing behind', async (t) => {
  const bun = wb.runtimes().find((r) => r.name === 'bun')
  const entry = path.join(require('@workbook/harness').repoRoot, 'apps', 'frameworks', 'node-http.js')
  const before = leftOver()
  if (!bun.present) {
    await t.assert.rejects(
      nb03.withBunCompiled(bun, entry, async () => null),
      /Bun is needed to compile an app: .*make runtimes/,
    )
    return
  }
  const got = await nb03.withBunCompiled(bun, entry, async (c) => {
    t.assert.ok(fs.existsSync(c.binary), c.binary)
    t.assert.match(
      c.command,
      /bun build --compile apps\/frameworks\/node-http\.js --outfile build\/compiled\/node-http$/,
    )
    t.assert.ok(c.megabytes > 10, `${c.megabytes} MB`)
    const app = await startApp({ name: 'node-http (compiled)', entry: c.binary, probe: '/json' }, { standalone: true })
    try {
      t.assert.ok(!app.command.includes('node-http.js'), app.command)
      t.assert.match(app.command, /^\(cd build\/compiled && .* \.\/node-http\)$/, app.command) // from its folder, as typed
      return await (await fetch(`${app.url}/json`)).json()
    } finally {
      await app.stop()
    }
  })
  t.assert.deepStrictEqual(got, { hello: 'world' })
  await t.assert.rejects(
    nb03.withBunCompiled(bun, entry, async () => {
      throw new Error('the callback failed')
    }),
    /the callback failed/,
  )
  t.assert.deepStrictEqual(leftOver(), before)
  await t.assert.rejects(
    nb03.withBunCompiled(bun, path.join(require('@workbook/harness').repoRoot, 'apps', 'no-such.js'), async () => null),
    /no such file/,
  )
})
