'use strict'
const { test } = require('node:test')
const { spawn } = require('node:child_process')
const readline = require('node:readline')
const path = require('node:path')
const h = require('@workbook/harness')
const { fixture, alive, waitUntil } = require('./helpers')

test('startApp starts a registered app on a free loopback port and stop() exits it cleanly', async (t) => {
  const app = await h.startApp('hello-http')
  t.after(() => app.stop())
  t.assert.match(app.url, /^http:\/\/127\.0\.0\.1:\d+$/)
  t.assert.ok(app.port > 0)
  const res = await fetch(app.url + '/')
  t.assert.deepStrictEqual(await res.json(), { hello: 'world' })
  t.assert.deepStrictEqual(h.running(), [app.groupId])
  const info = await app.stop()
  t.assert.deepStrictEqual(info, { code: 0, signal: null })
  t.assert.strictEqual(alive(app.pid), false)
  t.assert.deepStrictEqual(h.running(), [])
})

test('an app that crashes at start fails fast with the tail of its stderr', async (t) => {
  const started = Date.now()
  await t.assert.rejects(h.startApp({ entry: fixture('crash-at-start.js') }), (err) => {
    t.assert.match(err.message, /exited \(code 1, signal null\) before listening/)
    t.assert.match(err.message, /planted failure: missing configuration DATABASE_URL/)
    return true
  })
  t.assert.ok(Date.now() - started < 10_000)
})

test('an app that never listens fails within the start timeout, and is killed', async (t) => {
  const before = new Set(h.running())
  await t.assert.rejects(h.startApp({ entry: fixture('never-listens.js') }, { startTimeoutMs: 1500 }), (err) => {
    t.assert.match(err.message, /did not report listening within 1500 ms/)
    t.assert.match(err.message, /waiting for a database that never comes/)
    return true
  })
  t.assert.deepStrictEqual(h.running().filter((g) => !before.has(g)), [])
})

test('an app answering 404 on its probe path fails with the status and body', async (t) => {
  await t.assert.rejects(h.startApp({ entry: fixture('not-found.js'), probe: '/' }), /answered 404 to GET \/: no such route/)
})

test('unknown app names are refused with the list of known apps', async (t) => {
  await t.assert.rejects(h.startApp('no-such-app'), /no app named "no-such-app" in the registry; known: .*hello-http/)
})

test('stop() escalates to SIGKILL and reaps the whole process group', async (t) => {
  const app = await h.startApp({ entry: fixture('ignores-sigint.js') }, { probe: false })
  const grandchild = JSON.parse(app.stdout().split('\n').find((l) => l.includes('grandchild'))).grandchild
  t.assert.ok(alive(grandchild))
  const info = await app.stop({ timeoutMs: 500 })
  t.assert.strictEqual(info.signal, 'SIGKILL')
  t.assert.ok(await waitUntil(() => !alive(grandchild), 3000), 'grandchild still alive')
  t.assert.match(app.stderr(), /ignored SIGINT for 500 ms: killed/)
})

test('withApp stops the app even when the body throws', async (t) => {
  let pid = 0
  await t.assert.rejects(h.withApp('hello-http', async (app) => { pid = app.pid; throw new Error('cell failed') }), /cell failed/)
  t.assert.ok(pid > 0)
  t.assert.strictEqual(alive(pid), false)
})

test('an app outlives no killed parent: it exits when its stdin closes', async (t) => {
  const parent = spawn(process.execPath, [fixture('spawn-and-orphan.js')], { cwd: path.join(__dirname, '..', '..'), stdio: ['ignore', 'pipe', 'inherit'] })
  const line = await new Promise((resolve) => readline.createInterface({ input: parent.stdout }).once('line', resolve))
  const { pid } = JSON.parse(line)
  t.assert.ok(alive(pid))
  parent.kill('SIGKILL')
  t.assert.ok(await waitUntil(() => !alive(pid), 5000), `app ${pid} outlived its killed parent`)
})

test('an app that exits by itself is no longer tracked, and its group is reaped', async (t) => {
  const app = await h.startApp({ entry: fixture('dies-under-load.js') }, { probe: false })
  t.assert.ok(h.running().includes(app.groupId))
  process.kill(app.pid, 'SIGTERM')
  await app.exited
  t.assert.ok(await waitUntil(() => !h.running().includes(app.groupId), 2000))
})

test('a runtime that does not exist fails at once, with the OS error', async (t) => {
  const before = h.running().length
  const started = Date.now()
  await t.assert.rejects(h.startApp('hello-http', { runtime: '/nonexistent/bin/bun' }), (err) => {
    t.assert.ok(err instanceof h.AppStartError)
    t.assert.match(err.message, /could not start \/nonexistent\/bin\/bun: spawn \/nonexistent\/bin\/bun ENOENT \(no such file/)
    return true
  })
  t.assert.ok(Date.now() - started < 2000)
  t.assert.strictEqual(h.running().length, before)
})

test('a probe path that leads off loopback is refused, and the app is stopped', async (t) => {
  const before = h.running().length
  await t.assert.rejects(h.startApp('hello-http', { probe: '//example.com/' }), /listens but GET \/\/example\.com\/ failed: refusing path/)
  t.assert.strictEqual(h.running().length, before)
})
