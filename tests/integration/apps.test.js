'use strict'
// Integration (make test-integration): the harness against live servers.
const { test } = require('node:test')
const { spawn } = require('node:child_process')
const readline = require('node:readline')
const path = require('node:path')
const h = require('@workbook/harness')
const { running } = require('@workbook/harness/internal')
const { fixture, alive, waitUntil } = require('../unit/helpers')
const { startApp } = require('../unit/helpers').internal('apps/start')

test('an app that never listens fails within the start timeout with what it printed, and is killed', async (t) => {
  const before = new Set(running())
  await t.assert.rejects(startApp({ entry: fixture('never-listens.js') }, { startTimeoutMs: 1500 }), (err) => {
    t.assert.strictEqual(err.code, 'WB_APP_SILENT')
    t.assert.match(err.message, /did not listen within 1500 ms, and did not exit/)
    t.assert.match(err.message, /Try: the harness learns the address from the server's 'listening' event/)
    t.assert.match(err.stderr, /waiting for a database that never comes/)
    return true
  })
  t.assert.deepStrictEqual(
    running().filter((g) => !before.has(g)),
    [],
  )
})

test('an app outlives no killed parent: it exits when its stdin closes', async (t) => {
  const parent = spawn(process.execPath, [fixture('spawn-and-orphan.js')], {
    cwd: path.join(__dirname, '..', '..'),
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const line = await new Promise((resolve, reject) => {
    readline.createInterface({ input: parent.stdout }).once('line', resolve)
    parent.once('exit', (code) => reject(new Error(`spawn-and-orphan.js exited (code ${code}) before it printed`)))
  })
  const { pid } = JSON.parse(line)
  t.assert.ok(alive(pid))
  parent.kill('SIGKILL')
  t.assert.ok(await waitUntil(() => !alive(pid), 5000), `app ${pid} outlived its killed parent`)
})

test("an app's command is what a learner types to start it: its env, the port it listens on, the entry", async (t) => {
  const app = await startApp('hello-http', { env: { GREETING: 'hi there' }, nodeArgs: ['--max-old-space-size=64'] })
  try {
    const pin = h.pinning().enabled ? `taskset -c ${app.cpus} ` : ''
    t.assert.strictEqual(
      app.command,
      `GREETING='hi there' PORT=${app.port} ${pin}node_modules/node/bin/node --max-old-space-size=64 apps/hello-http/server.js`,
    )
  } finally {
    await app.stop()
  }
  // a server file of the learner's runs from its own folder: the command goes there, in a subshell
  const own = await startApp(path.join(__dirname, '..', '..', 'notebooks', 'your-server', 'server.js'))
  try {
    const pin = h.pinning().enabled ? `taskset -c ${own.cpus} ` : ''
    t.assert.strictEqual(
      own.command,
      `(cd notebooks/your-server && PORT=${own.port} ${pin}../../node_modules/node/bin/node server.js)`,
    )
  } finally {
    await own.stop()
  }
})
